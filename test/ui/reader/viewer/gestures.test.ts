// The image viewer's gesture arithmetic (pure): zoom about a point, pinch, bounds, swipes.
import { describe, expect, it } from 'vitest';
import { bound, FIT, MAX_SCALE, pinch, swipeOf, zoomAbout } from '../../../../src/ui/reader/viewer/gestures.ts';

describe('viewer gestures', () => {
  it('zooming keeps the point under the fingers where it was', () => {
    const at = { x: 50, y: -20 };
    const p = zoomAbout(FIT, 3, at);
    expect(p.scale).toBe(3);
    // The picture point under `at` before ((at - offset) / scale) is still under it.
    expect((at.x - p.x) / p.scale).toBeCloseTo(at.x);
    expect((at.y - p.y) / p.scale).toBeCloseTo(at.y);
  });

  it('a pinch scales by the change of the fingers’ distance and pans with their midpoint', () => {
    const p = pinch(
      FIT,
      [
        { x: -30, y: 0 },
        { x: 30, y: 0 },
      ],
      [
        { x: -90, y: 10 },
        { x: 90, y: 10 },
      ],
    );
    expect(p.scale).toBeCloseTo(3);
    expect(p.y).toBeCloseTo(10);
  });

  it('stays between 1× (centred) and the most zoom; a pan cannot lose the picture', () => {
    expect(zoomAbout(FIT, 0.2, { x: 10, y: 10 })).toEqual(FIT);
    expect(zoomAbout(FIT, 100, { x: 0, y: 0 }).scale).toBe(MAX_SCALE);
    expect(bound({ scale: 2, x: 5000, y: -5000 }, { x: 100, y: 50 })).toEqual({ scale: 2, x: 100, y: -50 });
  });

  it('a swipe needs a clear sideways move', () => {
    expect(swipeOf(-200, 10, 390)).toBe(1);
    expect(swipeOf(200, 10, 390)).toBe(-1);
    expect(swipeOf(-20, 0, 390)).toBe(0);
    expect(swipeOf(-120, 150, 390)).toBe(0);
  });
});
