import { describe, expect, it, vi } from 'vitest';
import { Emitter } from './emitter';
import { parseSocketMessage, shouldReplyToHeartbeat, socketUrl } from './socket-protocol';

describe('Emitter', () => {
  it('delivers to subscribers until they unsubscribe', () => {
    const e = new Emitter<{ file: { id: number }; export: string }>();
    const seen: number[] = [];
    const off = e.on('file', (d) => seen.push(d.id));
    e.emit('file', { id: 1 });
    off();
    e.emit('file', { id: 2 });
    expect(seen).toEqual([1]);
    expect(e.count('file')).toBe(0);
  });
  it('keeps going when a listener throws', () => {
    const e = new Emitter<{ process: number }>();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ok = vi.fn();
    e.on('process', () => {
      throw new Error('boom');
    });
    e.on('process', ok);
    e.emit('process', 3);
    expect(ok).toHaveBeenCalledWith(3);
    spy.mockRestore();
  });
});

describe('socket protocol', () => {
  it('parses {event, data} frames', () => {
    expect(parseSocketMessage('{"event":"file","data":{"id":1}}')).toEqual({ event: 'file', data: { id: 1 } });
    expect(parseSocketMessage('{"event":"heartbeat"}')).toEqual({ event: 'heartbeat', data: undefined });
    expect(parseSocketMessage('not json')).toBeNull();
    expect(parseSocketMessage('{"data":1}')).toBeNull();
    expect(parseSocketMessage('[1]')).toBeNull();
    expect(parseSocketMessage(new ArrayBuffer(2))).toBeNull();
  });
  it('builds ws and wss addresses', () => {
    expect(socketUrl('a b', { protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/ws?token=a%20b');
    expect(socketUrl('t', { protocol: 'https:', host: 'audit.example' })).toBe('wss://audit.example/ws?token=t');
    expect(socketUrl('t', { protocol: 'https:', host: 'example.com' }, '/fund-audit')).toBe('wss://example.com/fund-audit/ws?token=t');
  });
});

describe('heartbeat replies', () => {
  it('answers at most once per 10 s window (no ping-pong with the server)', () => {
    expect(shouldReplyToHeartbeat(0, 20_000)).toBe(true);
    expect(shouldReplyToHeartbeat(20_000, 20_050)).toBe(false);
    expect(shouldReplyToHeartbeat(20_000, 40_000)).toBe(true);
  });
});
