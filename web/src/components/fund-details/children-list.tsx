/** The children of a parent fund (Children tab of both fund details), each a link opening it. */
import type { FundDetails } from '../../api/auditor-types';

export function ChildrenList({ fund, onOpen }: { fund: Pick<FundDetails, 'children'>; onOpen: (id: number) => void }) {
  return (
    <ul className="fa-fd-children">
      {fund.children.map((c) => (
        <li key={c.id}>
          <button type="button" className="fa-linkbutton" onClick={() => onOpen(c.id)}>
            {c.fund_code ? `${c.fund_code} - ` : ''}
            {c.name}
          </button>{' '}
          <span className="fa-empty-text">({c.client})</span>
        </li>
      ))}
    </ul>
  );
}
