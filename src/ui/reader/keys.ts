import { useEffect } from 'preact/hooks';
import type { ReaderModel } from './model.ts';

/** Keys of the reader (shown in the help): jumps between user messages, tool calls, errors, items. */
export const READER_KEYS: Array<[string, string]> = [
  ['j / k', 'next / previous item'],
  ['u / Shift+U', 'next / previous user message'],
  ['t / Shift+T', 'next / previous tool call'],
  ['e / Shift+E', 'next / previous error'],
  ['g / Shift+G', 'first / last item'],
  ['/ or Ctrl+F', 'find in session'],
  ['b', 'branches'],
  ['?', 'this list of keys'],
  ['Esc', 'close find, branches or this list'],
];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

/** Installs the reader's keyboard navigation while it is mounted (and `enabled`). */
export function useReaderKeys(model: ReaderModel, enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') {
        // The browser's own find cannot see rows that are not rendered.
        e.preventDefault();
        model.tab.value = 'transcript';
        model.findOpen.value = true;
        return;
      }
      if (e.key === 'Escape') {
        if (model.helpOpen.value) model.helpOpen.value = false;
        else if (model.findOpen.value) model.findOpen.value = false;
        else model.treeOpen.value = false;
        return;
      }
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const back = e.shiftKey ? -1 : 1;
      const count = model.view.value?.count ?? 0;
      switch (e.key.toLowerCase()) {
        case 'j':
          void model.jump('item', 1);
          break;
        case 'k':
          void model.jump('item', -1);
          break;
        case 'u':
          void model.jump('user', back);
          break;
        case 't':
          void model.jump('tool', back);
          break;
        case 'e':
          void model.jump('error', back);
          break;
        case 'g':
          if (count) model.scrollTo(e.shiftKey ? count - 1 : 0, e.shiftKey ? 'end' : 'start');
          break;
        case '/':
          model.tab.value = 'transcript';
          model.findOpen.value = true;
          break;
        case 'b':
          model.treeOpen.value = !model.treeOpen.value;
          break;
        case '?':
          model.helpOpen.value = !model.helpOpen.value;
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [model, enabled]);
}
