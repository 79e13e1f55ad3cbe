/** Where the picture sits: a scale about the stage's centre and an offset in CSS pixels. */
export interface Pose {
  scale: number;
  x: number;
  y: number;
}

/** The picture as it first shows: whole, centred. */
export const FIT: Pose = { scale: 1, x: 0, y: 0 };
/** Most the viewer zooms in (a phone photo's detail at 8× its fitted size). */
export const MAX_SCALE = 8;

/** A point in stage coordinates (relative to the stage's centre). */
export interface Point {
  x: number;
  y: number;
}

const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(1, s));

/** The pose after zooming to `scale` about point `at`, so the point under the fingers stays put. */
export function zoomAbout(pose: Pose, scale: number, at: Point): Pose {
  const next = clampScale(scale);
  const k = next / pose.scale;
  return bound({ scale: next, x: at.x - (at.x - pose.x) * k, y: at.y - (at.y - pose.y) * k });
}

/**
 * A two-finger step: the pinch from `before` (two points) to `after` scales by the change of their
 * distance about their midpoint, and the midpoint's move pans.
 */
export function pinch(pose: Pose, before: [Point, Point], after: [Point, Point]): Pose {
  const dist = (p: [Point, Point]) => Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) || 1;
  const mid = (p: [Point, Point]) => ({ x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2 });
  const a = mid(before);
  const b = mid(after);
  const zoomed = zoomAbout(pose, pose.scale * (dist(after) / dist(before)), a);
  return bound({ ...zoomed, x: zoomed.x + b.x - a.x, y: zoomed.y + b.y - a.y });
}

/** Keeps a zoomed picture from being dragged out of sight; at scale 1 it is centred. */
export function bound(pose: Pose, limit: Point = { x: Number.POSITIVE_INFINITY, y: Number.POSITIVE_INFINITY }): Pose {
  if (pose.scale <= 1) return FIT;
  const clamp = (v: number, m: number) => Math.min(m, Math.max(-m, v));
  return { scale: pose.scale, x: clamp(pose.x, limit.x * (pose.scale - 1)), y: clamp(pose.y, limit.y * (pose.scale - 1)) };
}

/** What a one-finger drag at scale 1 means when it ends: the next (+1) or previous (-1) picture, or nothing. */
export function swipeOf(dx: number, dy: number, width: number): -1 | 0 | 1 {
  if (Math.abs(dx) < Math.max(40, width * 0.12) || Math.abs(dx) < Math.abs(dy) * 1.5) return 0;
  return dx < 0 ? 1 : -1;
}
