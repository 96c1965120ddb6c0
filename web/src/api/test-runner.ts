/**
 * Test runner calls (delivery spec section 7: `/dev-tools/test-runner/*`) and their shapes
 * (section 3 "Test run").
 */
import { api } from './client';

export interface TestStep {
  stepId: string;
  success: boolean;
  payload?: unknown;
  error?: { message: string; traceback?: string; details?: unknown };
}
export interface TestResult {
  id: string;
  title: string;
  success: boolean;
  time?: number;
  steps: TestStep[];
}
export interface TestRun {
  id: number;
  userAuthId: number | null;
  user: string | null;
  administratorCodes: string[];
  testIds: string[];
  status: string;
  created_at: string;
  updated_at: string;
  hasErrors: boolean;
  results: {
    stats?: { startedAt?: string; finishedAt?: string; totalTime?: number };
    reports?: Record<string, { tests: TestResult[] }>;
    error?: string;
  } | null;
}
export interface Suite {
  administratorCode: string;
  administratorName: string;
  tests: Array<{ id: string; title: string; description?: string }>;
}
export interface RunList {
  rows: TestRun[];
  pagination: { offset: number; limit: number; count: number };
  suites: Suite[];
}

/** Test runs newest first with the available suites; 50 a page (spec section 9). */
export const fetchRuns = (offset: number, limit = 50) => api.get<RunList>(`/dev-tools/test-runner/tests?offset=${offset}&limit=${limit}`);
export const fetchRun = (id: number) => api.get<TestRun>(`/dev-tools/test-runner/tests/${id}`);
export const stopRun = (id: number) => api.post<TestRun>('/dev-tools/test-runner/test/stop', { id });
export const scheduleRun = (administratorCodes: string[], testIds: string[]) =>
  api.post<TestRun>('/dev-tools/test-runner/schedule', { administratorCodes, testIds });
