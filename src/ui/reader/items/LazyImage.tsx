import { useEffect, useState } from 'preact/hooks';
import type { ImageRef } from '../../../core/view/types.ts';
import type { ReaderModel } from '../model.ts';
import './attachments.css';

function formatBytes(n: number): string {
  // A no-break space: "3.2 KB" never breaks between the number and its unit.
  if (n < 1024) return `${n}\u00a0B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)}\u00a0KB`;
  return `${(n / 1024 / 1024).toFixed(1)}\u00a0MB`;
}

/** A file that is not shown as a picture: a chip with its type and size. */
export function FileChip({ name, mimeType, note }: { name: string; mimeType: string; note?: string }) {
  return (
    <span class="rd-chip" title={mimeType}>
      <span class="rd-chip-name">{name}</span>{' '}
      <span class="muted">
        {mimeType}
        {note ? ` · ${note}` : ''}
      </span>
    </span>
  );
}

/**
 * An image from the session: fetched from the worker as a Blob (only when mounted, i.e. on screen),
 * shown through a blob: URL in an <img>; a tap opens it full screen (ImageViewer). SVG and non-images
 * are chips, missing blobs say so.
 */
export function LazyImage({ image, model, alt }: { image: ImageRef; model: ReaderModel; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'missing' | 'broken'>('loading');
  useEffect(() => {
    if (!image.showable) return;
    let live = true;
    let made: string | null = null;
    model.imageBlob(image.entryId, image.part).then(
      (blob) => {
        if (!live) return;
        if (!blob) return setState('missing');
        made = URL.createObjectURL(blob);
        setUrl(made);
        setState('ready');
      },
      () => live && setState('missing'),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [image.entryId, image.part, image.showable]);

  if (!image.showable)
    return (
      <FileChip
        name={alt}
        mimeType={image.mimeType}
        note={image.mimeType.includes('svg') ? 'SVG is not displayed' : image.bytes ? formatBytes(image.bytes) : undefined}
      />
    );
  if (state === 'missing') {
    const note = image.blobRef ? `image stored outside the file (omp blob ${image.blobRef.slice(0, 12)}…) was not imported` : 'these bytes are not a picture';
    return <FileChip name={alt} mimeType={image.mimeType} note={note} />;
  }
  if (state === 'broken') return <FileChip name={alt} mimeType={image.mimeType} note="could not be decoded" />;
  if (!url) return <span class="rd-img-wait" role="img" aria-label={`${alt} (loading)`} />;
  return (
    <button type="button" class="rd-img" onClick={() => void model.openViewer(image)} aria-label={`${alt}: open full screen`}>
      <img src={url} alt={alt} loading="lazy" decoding="async" onError={() => setState('broken')} />
    </button>
  );
}
