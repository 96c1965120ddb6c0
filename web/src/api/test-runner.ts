/**
 * Test runner calls (delivery spec section 7: `/dev-tools/test-runner/*`) and their shapes
 * (section 3 "Test run").
 */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';

/** Runs newest first with the available suites (`GET /dev-tools/test-runner/tests`). */
export type RunList = ApiResponse<'GET /api/v2.0/dev-tools/test-runner/tests'>;
/** A test run. */
export type TestRun = ApiResponse<'GET /api/v2.0/dev-tools/test-runner/tests/:id'>;
/** A TPA's regression suite and its cases. */
export type Suite = RunList['suites'][number];
/** One case's result in a run's report. */
export type TestResult = NonNullable<NonNullable<TestRun['results']>['reports']>[string]['tests'][number];
/** One step of a case's result. */
export type TestStep = TestResult['steps'][number];

/** Test runs newest first with the available suites; 50 a page (spec section 9). */
export const fetchRuns = (offset: number, limit = 50) => call('GET /api/v2.0/dev-tools/test-runner/tests', { query: { offset, limit } });
export const fetchRun = (id: number) => call('GET /api/v2.0/dev-tools/test-runner/tests/:id', { params: { id } });
export const stopRun = (id: number) => call('POST /api/v2.0/dev-tools/test-runner/test/stop', { body: { id } });
export const scheduleRun = (administratorCodes: string[], testIds: string[]) =>
  call('POST /api/v2.0/dev-tools/test-runner/schedule', { body: { administratorCodes, testIds } });
