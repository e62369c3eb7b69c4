// Per-endpoint connection slots: never more running than the cap, waiting in claim order, a freed
// slot handed straight to the next waiting delivery, stale and per-endpoint waiting taken out.
import { describe, expect, it } from 'vitest';
import { EndpointSlots } from '../../worker/endpoint-slots';

describe('EndpointSlots', () => {
  it('runs up to the cap, queues the rest in order, and hands a freed slot to the next', () => {
    const slots = new EndpointSlots<string>();
    expect(['a1', 'a2', 'a3', 'a4'].map((id) => slots.acquireOrWait('a', 2, id, 0))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(slots.acquireOrWait('b', 2, 'b1', 0)).toBe(true);
    expect(slots.waiting).toBe(2);
    expect(slots.release('a', true)).toBe('a3');
    expect(slots.release('a', true)).toBe('a4');
    expect(slots.waiting).toBe(0);
    // Nothing waiting: the slot is free again, and a new delivery takes it at once.
    expect(slots.release('a', true)).toBeUndefined();
    expect(slots.acquireOrWait('a', 2, 'a5', 0)).toBe(true);
    expect(slots.acquireOrWait('a', 2, 'a6', 0)).toBe(false);
  });

  it('does not hand over while stopping, so waiting deliveries can be given back', () => {
    const slots = new EndpointSlots<string>();
    slots.acquireOrWait('a', 1, 'a1', 0);
    slots.acquireOrWait('a', 1, 'a2', 0);
    expect(slots.release('a', false)).toBeUndefined();
    expect(slots.takeWaiting()).toEqual(['a2']);
    expect(slots.waiting).toBe(0);
  });

  it('takes out what waited since before a time, and everything of one endpoint', () => {
    const slots = new EndpointSlots<string>();
    slots.acquireOrWait('a', 1, 'a1', 0);
    slots.acquireOrWait('a', 1, 'a2', 100);
    slots.acquireOrWait('a', 1, 'a3', 900);
    slots.acquireOrWait('b', 1, 'b1', 0);
    slots.acquireOrWait('b', 1, 'b2', 50);
    expect(slots.takeWaitingSince(500).sort()).toEqual(['a2', 'b2']);
    expect(slots.takeWaiting('a')).toEqual(['a3']);
    expect(slots.waiting).toBe(0);
    expect(slots.endpointsWaiting).toBe(0);
  });
});
