import { useContext } from 'preact/hooks';
import type { ToolView } from '../../../core/view/types.ts';
import { LazyImage } from './LazyImage.tsx';
import type { ReaderModel } from '../model.ts';
import { Diff, Output } from './Output.tsx';
import { holds, RevealContext } from './reveal.ts';
import './blocks.css';

/** One line saying what the call did, for the common tools. */
function headline(tool: ToolView): string {
  if (tool.command !== undefined) return tool.command.split('\n')[0];
  if (tool.path !== undefined) return tool.path;
  return '';
}

/** A tool call and its result: readable for bash/read/edit/write, arguments for the rest. */
export function ToolCard({ tool, model, orphan = false }: { tool: ToolView; model: ReaderModel; orphan?: boolean }) {
  const result = tool.result;
  const failed = result?.isError === true;
  const line = headline(tool);
  const name = tool.name.toLowerCase();
  const readable = tool.command !== undefined || tool.path !== undefined;
  const reveal = useContext(RevealContext);
  return (
    <div class={`rd-tool ${failed ? 'error' : ''} ${result ? '' : 'no-result'}`} role="group" aria-label={`Tool call ${tool.name}`}>
      <header class="rd-tool-head">
        <span class="rd-tool-name">{tool.name}</span>
        {line && <code class="rd-tool-line">{line}</code>}
        {failed && <span class="rd-badge error">error</span>}
        {!result && !orphan && <span class="rd-badge warn">no result</span>}
        {orphan && <span class="rd-badge">result without its call</span>}
      </header>
      {tool.command?.includes('\n') && <Output text={tool.command} class="cmd" />}
      {name === 'write' && tool.content !== undefined && <Output text={tool.content} class="file" />}
      {tool.args && tool.args !== '{}' && !tool.argsShown && (
        <details class="rd-args" open={!readable || holds(tool.args, reveal)} key={String(holds(tool.args, reveal))}>
          <summary>Arguments</summary>
          <pre tabIndex={0}>{tool.args}</pre>
        </details>
      )}
      {result?.diff && <Diff diff={result.diff} />}
      {result && (result.text || !result.images.length) && <Output text={result.text || '(no output)'} class={failed ? 'error' : ''} />}
      {result?.truncated && <p class="muted rd-note">Output cut for display; the full text is in the entry's JSON.</p>}
      {result?.images.map((image, i) => (
        <LazyImage key={i} image={image} model={model} alt={`${tool.name} result image ${i + 1}`} />
      ))}
      {!result && !orphan && <p class="muted rd-note">This call never got a result on this branch.</p>}
    </div>
  );
}
