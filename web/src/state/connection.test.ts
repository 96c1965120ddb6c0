import { describe, expect, it } from 'vitest';
import { backoffDelay, reduceConnection, type ConnectionEvent, type ConnectionState } from './connection';

const run = (start: ConnectionState, events: ConnectionEvent[]) => events.reduce(reduceConnection, start);

describe('reduceConnection', () => {
  it('connects', () => {
    expect(run('disconnected', ['start'])).toBe('connecting');
    expect(run('disconnected', ['start', 'open'])).toBe('connected');
  });
  it('reconnects after a close of a live socket', () => {
    expect(run('connected', ['close'])).toBe('reconnecting');
    expect(run('connected', ['close', 'retry', 'open'])).toBe('connected');
  });
  it('errors set disconnected; retrying sets reconnecting', () => {
    expect(run('connected', ['error'])).toBe('disconnected');
    expect(run('connected', ['error', 'close'])).toBe('disconnected');
    expect(run('connected', ['error', 'close', 'retry'])).toBe('reconnecting');
  });
  it('stop always disconnects', () => {
    for (const s of ['connecting', 'connected', 'reconnecting', 'disconnected'] as ConnectionState[]) {
      expect(reduceConnection(s, 'stop')).toBe('disconnected');
    }
  });
});

describe('backoffDelay', () => {
  it('follows 1 s, 2 s, 5 s, then 10 s', () => {
    expect([0, 1, 2, 3, 4, 50].map(backoffDelay)).toEqual([1000, 2000, 5000, 10000, 10000, 10000]);
    expect(backoffDelay(-1)).toBe(1000);
  });
});
