// What the app's library does with the session being read: the share dialog, the export of the
// branch on screen and the label editor. Handed to the reader by the app (the share page's reader gets none), so the
// reader does not pull the library's share and export code into a share page.
import { exportActiveBranch, exportTargets } from '../models/exports.ts';
import { openShare } from '../share/share-model.ts';
import { LabelButton, LabelForm } from './panels/LabelEditor.tsx';
import type { ReaderLibrary } from './Reader.tsx';

export const appReaderLibrary: ReaderLibrary = {
  share: (target) => openShare(target),
  exportBranch: (id, leafId) => void exportActiveBranch(id, exportTargets().includes('share') ? 'share' : 'download', leafId),
  labels: { Button: LabelButton, Form: LabelForm },
};
