import { describe, expect, it } from 'vitest';
import { countedOver, type Figures, formatFigure, MEASURES } from './scorecards.js';

const figures: Figures = {
  requests: 20,
  measured: 16,
  onTime: 12,
  late: 4,
  onTimeRate: 75,
  meanDaysLate: 3.5,
  p90DaysLate: 7,
  checked: 10,
  firstTimeRight: 9,
  firstTimeRightRate: 90,
  reDeliveries: 1,
  reDeliveriesPerRequest: 0.05,
  chasesSent: 3,
  chasesOpen: 1,
  chasesAnswered: 1,
  medianDaysToAnswer: 1,
};

describe('scorecard measures', () => {
  it('write each figure in its unit, and a dash where nothing was measured', () => {
    expect(MEASURES.map((m) => formatFigure(figures[m.key], m.unit))).toEqual(['20', '75.0%', '3.5 days', '7 days', '90.0%', '0.05', '3', '1', '1 day']);
    expect(formatFigure(null, 'percent')).toBe('—');
    expect(formatFigure(1204, 'count')).toBe('1,204');
  });

  it('say what a figure is counted over', () => {
    expect(countedOver(figures, 'onTimeRate')).toBe('12 on time of 16 judged');
    expect(countedOver(figures, 'p90DaysLate')).toBe('4 late requests');
    expect(countedOver(figures, 'reDeliveriesPerRequest')).toBe('1 re-delivery');
    expect(countedOver(figures, 'medianDaysToAnswer')).toBe('1 chase answered');
    expect(countedOver(figures, 'requests')).toBe('');
  });

  it('drill down from each measure to the requests that make it', () => {
    expect(Object.fromEntries(MEASURES.map((m) => [m.key, m.drillDown]))).toMatchObject({
      onTimeRate: 'late',
      firstTimeRightRate: 'not_first_time_right',
      chasesOpen: 'open_chases',
    });
  });
});
