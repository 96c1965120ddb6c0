/**
 * The paginator of the fund listing grids when their count may be capped (capped-count.ts): the
 * page report reads "1 - 100 of 10,000+" with a "Count all" button that asks for the exact count,
 * and the last-page button, while only the capped count is known, counts first and then goes to
 * the real last page. With an exact count both are PrimeReact's own.
 */
import { cloneElement, type ReactElement } from 'react';
import type { PaginatorTemplateOptions } from 'primereact/paginator';
import { countLabel, type CappedPagination } from './capped-count';
import './capped-paginator.css';

export interface CappedPagerProps {
  pagination: CappedPagination;
  /** rows of the page shown */
  shownRows: number;
  /** the exact count once asked for, else null */
  exact: number | null;
  /** whether the exact count is being asked for */
  counting: boolean;
  /** asks for the exact count */
  onCountAll: () => void;
  /** asks for the exact count, then shows the last page */
  onLastPage: () => void;
}

/** The grids' paginator layout with the page report. */
export const CAPPED_PAGER_LAYOUT = 'FirstPageLink PrevPageLink PageLinks NextPageLink LastPageLink RowsPerPageDropdown CurrentPageReport';

/** The count of a listing as its page report and toolbar show it: exact when known, else the capped one. */
export function shownCount(p: Pick<CappedPagerProps, 'pagination' | 'exact'>): string {
  return p.exact !== null ? countLabel(p.exact, false) : countLabel(p.pagination.count, p.pagination.countCapped);
}

/** The "Count all" button of a capped count (or its progress), nothing once the count is exact. */
export function CountAllButton(props: Pick<CappedPagerProps, 'pagination' | 'exact' | 'counting' | 'onCountAll'>) {
  if (!props.pagination.countCapped || props.exact !== null) return null;
  return (
    <button type="button" className="fa-count-all p-link" onClick={props.onCountAll} disabled={props.counting} aria-busy={props.counting}>
      {props.counting ? 'Counting...' : 'Count all'}
    </button>
  );
}

/** A paginator template (DataTable `paginatorTemplate`) for a listing whose count may be capped. */
export function cappedPaginatorTemplate(props: CappedPagerProps, layout = CAPPED_PAGER_LAYOUT): PaginatorTemplateOptions {
  const { pagination, shownRows, exact, counting } = props;
  const capped = pagination.countCapped && exact === null;
  return {
    layout,
    CurrentPageReport: () => {
      const first = shownRows ? pagination.offset + 1 : 0;
      return (
        <span className="p-paginator-current fa-page-report">
          <span data-testid="page-report">{`${first.toLocaleString('en-US')} - ${(pagination.offset + shownRows).toLocaleString('en-US')} of ${shownCount(props)}`}</span>
          <CountAllButton {...props} />
        </span>
      );
    },
    LastPageLink: (o) => {
      const element = o.element as ReactElement<{ onClick?: unknown; disabled?: boolean; title?: string }>;
      if (!capped) return element;
      // the real last page is past the cap: count, then go there
      return cloneElement(element, { onClick: props.onLastPage, disabled: counting || !pagination.next, title: 'Count all and go to the last page' });
    },
  };
}
