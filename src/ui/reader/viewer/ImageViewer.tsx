import { useEffect, useRef, useState } from 'preact/hooks';
import type { ReaderModel } from '../model.ts';
import { bound, FIT, pinch, type Point, type Pose, swipeOf, zoomAbout } from './gestures.ts';
import './viewer.css';

/** The picture at `at` of the viewer's list, as a blob: URL (revoked when another is shown). */
function useImageUrl(model: ReaderModel, entryId: string, part: number): string | null | 'missing' {
  const [url, setUrl] = useState<string | null | 'missing'>(null);
  useEffect(() => {
    let live = true;
    let made: string | null = null;
    setUrl(null);
    model.imageBlob(entryId, part).then(
      (blob) => {
        if (!live) return;
        if (!blob) return setUrl('missing');
        made = URL.createObjectURL(blob);
        setUrl(made);
      },
      () => live && setUrl('missing'),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [entryId, part]);
  return url;
}

/**
 * The session's pictures full screen: pinch (or Ctrl+wheel, double tap) to zoom, drag to pan,
 * swipe or arrows for the next one. Back (the browser's, the close button, Escape) closes it:
 * opening adds a history entry so a phone's back gesture does not leave the reader.
 */
export function ImageViewer({ model }: { model: ReaderModel }) {
  const state = model.viewer.value!;
  const { images, at } = state;
  const current = images[at];
  const url = useImageUrl(model, current.image.entryId, current.image.part);
  const [pose, setPose] = useState<Pose>(FIT);
  const stage = useRef<HTMLDivElement>(null);
  const closeBtn = useRef<HTMLButtonElement>(null);
  const pointers = useRef(new Map<number, Point>());
  const drag = useRef<{ start: Point; moved: boolean } | null>(null);
  const lastTap = useRef(0);
  const poseRef = useRef(pose);
  poseRef.current = pose;

  const go = (delta: number) => {
    const next = at + delta;
    if (next < 0 || next >= images.length) return;
    setPose(FIT);
    model.viewer.value = { images, at: next };
  };
  const close = () => model.closeViewer();

  // A history entry of our own: the browser's back closes the viewer and stays in the reader.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    history.pushState({ ...(history.state as object | null), rdViewer: true }, '', location.href);
    const onPop = () => model.closeViewer({ fromHistory: true });
    window.addEventListener('popstate', onPop);
    closeBtn.current?.focus();
    return () => {
      window.removeEventListener('popstate', onPop);
      previous?.focus?.();
    };
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
      else if (e.key === 'ArrowRight') go(1);
      else if (e.key === 'ArrowLeft') go(-1);
      else return;
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    // Capture: the reader's own keys (Escape closes find) must not see these.
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  });

  /** A pointer's position relative to the stage's centre. */
  const local = (e: PointerEvent | WheelEvent | MouseEvent): Point => {
    const r = stage.current!.getBoundingClientRect();
    return { x: e.clientX - r.left - r.width / 2, y: e.clientY - r.top - r.height / 2 };
  };
  const limit = (): Point => {
    const img = stage.current?.querySelector('img');
    return img ? { x: img.clientWidth / 2, y: img.clientHeight / 2 } : { x: 0, y: 0 };
  };

  const onPointerDown = (e: PointerEvent) => {
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    pointers.current.set(e.pointerId, local(e));
    if (pointers.current.size === 1) drag.current = { start: local(e), moved: false };
    else drag.current = null;
  };
  const onPointerMove = (e: PointerEvent) => {
    const before = pointers.current.get(e.pointerId);
    if (!before) return;
    const now = local(e);
    if (pointers.current.size >= 2) {
      const [a, b] = [...pointers.current.entries()];
      const other = a[0] === e.pointerId ? b[1] : a[1];
      setPose((p) => bound(pinch(p, [before, other], [now, other]), limit()));
    } else if (poseRef.current.scale > 1) {
      setPose((p) => bound({ ...p, x: p.x + now.x - before.x, y: p.y + now.y - before.y }, limit()));
    }
    if (drag.current && Math.hypot(now.x - drag.current.start.x, now.y - drag.current.start.y) > 8) drag.current.moved = true;
    pointers.current.set(e.pointerId, now);
  };
  const onPointerUp = (e: PointerEvent) => {
    const end = pointers.current.get(e.pointerId);
    pointers.current.delete(e.pointerId);
    const start = drag.current;
    drag.current = null;
    if (!start || !end || pointers.current.size) return;
    if (start.moved) {
      if (poseRef.current.scale <= 1) go(swipeOf(end.x - start.start.x, end.y - start.start.y, stage.current?.clientWidth ?? 360));
      return;
    }
    // A double tap zooms in where it lands, or back out.
    const t = e.timeStamp;
    if (t - lastTap.current < 350) {
      lastTap.current = 0;
      setPose((p) => (p.scale > 1 ? FIT : zoomAbout(p, 2.5, end)));
    } else lastTap.current = t;
  };
  const onWheel = (e: WheelEvent) => {
    if (!e.ctrlKey && poseRef.current.scale <= 1 && Math.abs(e.deltaX) > Math.abs(e.deltaY)) return;
    e.preventDefault();
    const at = local(e);
    setPose((p) => bound(zoomAbout(p, p.scale * Math.exp(-e.deltaY / 300), at), limit()));
  };

  const label = `Image ${at + 1} of ${images.length}`;
  return (
    <div class="iv" role="dialog" aria-modal="true" aria-label={label}>
      <div class="iv-bar">
        <span class="iv-count" aria-live="polite">
          {label}
        </span>
        <span class="iv-zoom">{pose.scale > 1.01 ? `${Math.round(pose.scale * 100)} %` : ''}</span>
        <button type="button" ref={closeBtn} class="iv-close" onClick={close} aria-label="Close the picture">
          ✕
        </button>
      </div>
      <div
        ref={stage}
        class="iv-stage"
        data-scale={pose.scale.toFixed(3)}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onWheel={onWheel}
      >
        {url === 'missing' ? (
          <p class="iv-missing">This picture could not be read.</p>
        ) : url ? (
          <img
            src={url}
            alt={current.image.mimeType ? `${label} (${current.image.mimeType})` : label}
            draggable={false}
            style={{ transform: `translate(${pose.x}px, ${pose.y}px) scale(${pose.scale})` }}
          />
        ) : (
          <p class="iv-missing">Loading…</p>
        )}
      </div>
      {images.length > 1 && (
        <>
          <button type="button" class="iv-nav prev" onClick={() => go(-1)} disabled={at === 0} aria-label="Previous picture">
            ‹
          </button>
          <button type="button" class="iv-nav next" onClick={() => go(1)} disabled={at === images.length - 1} aria-label="Next picture">
            ›
          </button>
        </>
      )}
    </div>
  );
}
