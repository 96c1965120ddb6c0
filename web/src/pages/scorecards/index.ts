/** The scorecards page (one lazily loaded chunk, shared by the auditor area and the delivery portal; chart.js a further lazy chunk). */
export { ScorecardsPage } from './scorecards-page';
