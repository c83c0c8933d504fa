import { useContext, useEffect } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';

/** Asks before leaving the page while `when` holds: the browser's own prompt on unload or reload. */
function useBeforeUnload(when: boolean) {
  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);
}

function RouterPrompt({ when, message }: { when: boolean; message: string }) {
  const blocker = useBlocker(when);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(message)) blocker.proceed();
    else blocker.reset();
  }, [blocker, message]);
  return null;
}

/**
 * While `when` holds, leaving the page asks first: in-app navigation with `message` (only under
 * the app's data router; plain routers in unit tests have no blocker) and unloading the page.
 */
export function LeaveGuard({ when, message }: { when: boolean; message: string }) {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  useBeforeUnload(when);
  return dataRouter ? <RouterPrompt when={when} message={message} /> : null;
}
