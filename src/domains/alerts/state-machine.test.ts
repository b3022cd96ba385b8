import { describe, expect, it } from 'vitest';
import { ALERT_MOVES, applyAlertTransition } from './state-machine';
import { ALERT_STATUSES } from './tables';

describe('alert lifecycle', () => {
  it('allows open → acknowledged and nothing else, for every pair', () => {
    for (const from of ALERT_STATUSES) {
      for (const to of ALERT_STATUSES) {
        const result = applyAlertTransition(from, { to });
        const allowed = from === 'open' && to === 'acknowledged';
        expect(result.ok, `${from} → ${to}`).toBe(allowed);
        expect(ALERT_MOVES[from].includes(to)).toBe(allowed);
        if (!result.ok) expect(result.errors.status?.length).toBe(1);
      }
    }
  });

  it('says a second acknowledgement is one, trims the note and bounds its length', () => {
    const again = applyAlertTransition('acknowledged', { to: 'acknowledged' });
    expect(again).toEqual({ ok: false, errors: { status: ['the alert is already acknowledged'] } });
    expect(applyAlertTransition('open', { to: 'acknowledged', note: '  seen  ' })).toEqual({
      ok: true,
      status: 'acknowledged',
      note: 'seen',
    });
    const long = applyAlertTransition('open', { to: 'acknowledged', note: 'x'.repeat(2001) });
    expect(long.ok).toBe(false);
  });
});
