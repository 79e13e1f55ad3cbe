import './share.css';
import { AgePrompt } from './AgePrompt.tsx';
import { ShareDialog } from './ShareDialog.tsx';

/** The share dialog and the .age password prompt, mounted once by the app. */
export function ShareHost() {
  return (
    <>
      <ShareDialog />
      <AgePrompt />
    </>
  );
}
