/**
 * The ranking of a scorecard: every TPA or client of the range, worst first (lowest on-time rate,
 * then lowest first-time-right rate, then most days late: the server's order), a column per measure.
 * A row's name opens that TPA's or client's scorecard.
 */
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { formatFigure, MEASURES, type ScorecardKind } from '../../../../rules/scorecards';
import type { ScorecardPayload } from '../../api/scorecards';

type Row = ScorecardPayload['ranking'][number];

export function RankingTable({
  kind,
  rows,
  selected,
  onSelect,
}: {
  kind: ScorecardKind;
  rows: Row[];
  /** the key of the TPA or client shown, if one */
  selected: string | null;
  onSelect: (key: string) => void;
}) {
  const keyOf = (r: Row) => r.key || r.name;
  return (
    <DataTable
      value={rows.map((r, i) => ({ ...r, rank: i + 1 }))}
      dataKey="name"
      size="small"
      stripedRows
      scrollable
      emptyMessage="Nothing to rank in this range"
      rowClassName={(r: Row) => (selected && keyOf(r).toLowerCase() === selected.toLowerCase() ? 'fa-scorecard-selected' : '')}
      aria-label={`${kind === 'tpa' ? 'TPAs' : 'Clients'} ranked worst first`}
      className="fa-scorecard-ranking"
    >
      <Column header="#" field="rank" style={{ width: '3rem' }} />
      <Column
        header={kind === 'tpa' ? 'TPA' : 'Client'}
        frozen
        body={(r: Row) => (
          <button type="button" className="fa-linkbutton" onClick={() => onSelect(keyOf(r))}>
            {r.name}
          </button>
        )}
      />
      {MEASURES.map((m) => (
        <Column key={m.key} header={<span title={m.help}>{m.short}</span>} align="right" body={(r: Row) => formatFigure(r.figures[m.key], m.unit)} />
      ))}
    </DataTable>
  );
}
