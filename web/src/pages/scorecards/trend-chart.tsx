/**
 * A measure's monthly trend (chart.js Line, as the status report's charts): one point per month of
 * the range, a gap where nothing was measured. A click on a month's point opens the requests behind
 * that month's figure. Loaded lazily so chart.js stays out of the page chunk.
 */
import { CategoryScale, Chart as ChartJS, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import { Line } from 'react-chartjs-2';

ChartJS.register(CategoryScale, LinearScale, LineElement, PointElement, Tooltip);

/** Props of a trend: the months (YYYY-MM), the values (null: nothing measured), how a value is written. */
export interface TrendProps {
  months: string[];
  values: Array<number | null>;
  format: (v: number | null) => string;
  /** Accessible description of the chart. */
  label: string;
  color: string;
  onMonth: (month: string) => void;
}

const monthLabel = (m: string) => new Date(`${m}-01T00:00:00Z`).toLocaleString('en-GB', { month: 'short', year: '2-digit', timeZone: 'UTC' });

/** A small line chart of one measure over the months. */
export default function TrendChart({ months, values, format, label, color, onMonth }: TrendProps) {
  return (
    <Line
      aria-label={label}
      role="img"
      data={{
        labels: months.map(monthLabel),
        datasets: [{ data: values, borderColor: color, backgroundColor: color, pointRadius: 3, pointHoverRadius: 5, spanGaps: false, tension: 0.2 }],
      }}
      options={{
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        onClick: (_event, elements) => {
          const i = elements[0]?.index;
          if (i !== undefined && months[i]) onMonth(months[i]);
        },
        onHover: (event, elements) => {
          const target = event.native?.target as HTMLElement | undefined;
          if (target) target.style.cursor = elements.length ? 'pointer' : 'default';
        },
        scales: {
          x: { ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 6, font: { size: 10 } }, grid: { display: false } },
          y: { beginAtZero: true, ticks: { maxTicksLimit: 4, font: { size: 10 } } },
        },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: (item) => format(item.raw as number | null) } },
        },
      }}
    />
  );
}
