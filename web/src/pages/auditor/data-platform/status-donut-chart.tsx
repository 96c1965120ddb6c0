/**
 * The donut of the status report (chart.js Doughnut, 75% cutout). Loaded lazily with the Status
 * Reporting tab so chart.js stays out of the first load and of the auditor page chunk.
 */
import { ArcElement, Chart as ChartJS, Tooltip } from 'chart.js';
import { Doughnut } from 'react-chartjs-2';

ChartJS.register(ArcElement, Tooltip);

/** Props of the donut: slice labels, values and colours. */
export interface DonutProps {
  labels: string[];
  values: number[];
  colors: string[];
  /** Accessible description of the chart. */
  label: string;
}

/** A donut chart with a 75% hole. */
export default function StatusDonutChart({ labels, values, colors, label }: DonutProps) {
  const empty = values.every((v) => v === 0);
  return (
    <Doughnut
      aria-label={label}
      role="img"
      data={{
        labels: empty ? ['No data'] : labels,
        datasets: [{ data: empty ? [1] : values, backgroundColor: empty ? ['#e2e8f0'] : colors, borderWidth: 1 }],
      }}
      options={{
        cutout: '75%',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: false }, tooltip: { enabled: !empty } },
      }}
    />
  );
}
