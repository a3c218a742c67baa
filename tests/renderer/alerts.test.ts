import { describe, expect, it } from 'vitest';
import type { AlertView } from '../../src/main/desk/alerts.js';
import {
  BELL_SIZE, MAX_TOASTS, alertTime, badgeText, bellLabel, createAlertsStore, muteInWords, parseThresholdPoints, thresholdText,
} from '../../src/renderer/src/lib/alerts.js';

const alert = (id: number, over: Partial<AlertView> = {}): AlertView => ({
  id: String(id), kind: 'player_login', at: '2026-11-20T06:30:00.000Z', title: `Player ${id} signed in`, body: 'A player of your downline signed in.',
  open: { page: `/agent/players/p${id}` }, muted: false, read: false, ...over,
});

describe('the bell store', () => {
  it('takes the backlog newest first, adds each new event once, and keeps the last 100', () => {
    const store = createAlertsStore();
    store.getState().apply({ type: 'backlog', alerts: [alert(1), alert(3), alert(2)], unread: 3 });
    expect(store.getState().alerts.map((a) => a.id)).toEqual(['3', '2', '1']);
    const event = (id: number, notify = true, muted = false) => ({
      type: 'event' as const, event: { id: String(id), kind: 'player_login' as const, at: alert(id).at, payload: { playerId: '00000000-0000-4000-8000-000000000000', playerName: 'x' } },
      alert: alert(id, { muted, read: muted }), muted, notify, unread: id,
    });
    expect(store.getState().apply(event(4))).toEqual({ tell: alert(4) });
    // Sent again after a restart of the feed: not a second alert.
    expect(store.getState().apply(event(4))).toEqual({});
    expect(store.getState().alerts.map((a) => a.id)).toEqual(['4', '3', '2', '1']);
    // Muted, or where main notified: into the bell only.
    expect(store.getState().apply(event(5, true, true))).toEqual({});
    expect(store.getState().apply(event(6, false))).toEqual({});
    for (let i = 7; i < 7 + BELL_SIZE; i++) store.getState().apply(event(i, false));
    expect(store.getState().alerts).toHaveLength(BELL_SIZE);
    expect(store.getState().alerts[0]!.id).toBe(String(6 + BELL_SIZE));
    // Ids are compared as numbers, not as text ("10" after "9").
    expect(store.getState().alerts.at(-1)!.id).toBe('7');
  });

  it('reads and clicks from main, toasts bounded', () => {
    const store = createAlertsStore();
    store.getState().apply({ type: 'backlog', alerts: [alert(8), alert(9), alert(10)], unread: 3 });
    store.getState().apply({ type: 'read', upTo: '9', unread: 1 });
    expect(store.getState().alerts.map((a) => [a.id, a.read])).toEqual([['10', false], ['9', true], ['8', true]]);
    expect(store.getState().unread).toBe(1);
    expect(store.getState().apply({ type: 'open', open: { chat: true } })).toEqual({ open: { chat: true } });
    for (let i = 1; i <= 5; i++) store.getState().toast(alert(i));
    expect(store.getState().toasts.map((t) => t.id)).toEqual(['3', '4', '5']);
    expect(store.getState().toasts).toHaveLength(MAX_TOASTS);
    store.getState().dismiss('4');
    expect(store.getState().toasts.map((t) => t.id)).toEqual(['3', '5']);
    store.getState().reset();
    expect(store.getState()).toMatchObject({ alerts: [], unread: 0, toasts: [] });
  });
});

describe('alert formatting', () => {
  it('counts and times', () => {
    expect(bellLabel(0)).toBe('Alerts, none unread');
    expect(bellLabel(3)).toBe('Alerts, 3 unread');
    expect(badgeText(150)).toBe('99+');
    const now = new Date('2026-11-20T12:00:00+05:30');
    expect(alertTime('2026-11-20T06:30:00.000Z', now, 'Asia/Kolkata')).toBe('12:00');
    expect(alertTime('2026-11-19T06:30:00.000Z', now, 'Asia/Kolkata')).toBe('19 Nov 2026, 12:00');
  });

  it('mutes in words', () => {
    const settings = { largeBetThreshold: 1_000_000, muted: { large_bet: { until: '2026-11-20T12:30:00.000Z' }, player_login: { until: null } } };
    expect(muteInWords(settings, 'large_bet', 'Asia/Kolkata')).toBe('Muted until 18:00');
    expect(muteInWords(settings, 'player_login', 'Asia/Kolkata')).toBe('Muted');
    expect(muteInWords(settings, 'market_settled', 'Asia/Kolkata')).toBe('On');
  });

  it('a threshold in points becomes exact paisa, never through a float', () => {
    const ok = (value: number) => ({ ok: true, value });
    expect(parseThresholdPoints('10,000')).toEqual(ok(1_000_000));
    expect(parseThresholdPoints(' 2500.5 ')).toEqual(ok(250_050));
    expect(parseThresholdPoints('0.29')).toEqual(ok(29));
    // 0.1 + 0.2 style traps: 1.15 × 100 is 114.99999999999999 as a float.
    expect(parseThresholdPoints('1.15')).toEqual(ok(115));
    expect(parseThresholdPoints('1,00,000')).toEqual(ok(10_000_000));
    expect(parseThresholdPoints('1000000000')).toEqual(ok(100_000_000_000));
    for (const bad of ['', '-5', '1.234', 'abc', '1e5', '1000000000.01', '12,34']) expect(parseThresholdPoints(bad).ok).toBe(false);
    expect(thresholdText(1_000_000)).toBe('10,000.00');
    expect(parseThresholdPoints(thresholdText(250_050))).toEqual(ok(250_050));
  });
});
