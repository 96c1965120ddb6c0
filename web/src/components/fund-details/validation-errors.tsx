/** The 'You have validation errors' list of the Fund details modal (at most 5, 'Duplicate Fund' linking to the fund). */
import type { FundError } from '../../api/auditor-types';
import { presentErrors } from './fund-form';

/**
 * Validation errors of a save; `onOpenFund` opens the fund a 'Duplicate Fund' error names; `title`
 * replaces the heading (e.g. 'Action failed' when the save itself failed).
 */
export function ValidationErrors({
  errors,
  onOpenFund,
  title = 'You have validation errors',
}: {
  errors: readonly FundError[];
  onOpenFund: (id: number) => void;
  title?: string;
}) {
  if (!errors.length) return null;
  const { shown, footer } = presentErrors(errors);
  return (
    <div className="fa-error-banner" role="alert" data-testid="validation-errors">
      <strong>{title}</strong>
      <ul>
        {shown.map((e, i) => {
          if (typeof e === 'string') return <li key={i}>{e}</li>;
          const id = Number(e.id);
          return (
            <li key={i}>
              {e.type ? `${e.type}: ` : ''}
              {e.message}
              {e.type === 'Duplicate Fund' && Number.isInteger(id) && (
                <>
                  {' '}
                  <button type="button" className="fa-linkbutton" onClick={() => onOpenFund(id)}>
                    Open fund {id}
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ul>
      {footer && <p style={{ margin: 0 }}>{footer}</p>}
    </div>
  );
}
