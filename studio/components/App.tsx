import { useEffect, useState } from 'preact/hooks';
import { confirmLeave, pendingLeave, route } from '../router';
import { session, startSession } from '../state/session';
import { ConfirmDialog } from './Dialog';
import { EditorScreen } from './EditorScreen';
import { SignIn } from './SignIn';
import { OrganizationList, SiteList } from './shell/Lists';

/** The session gate, then the screen the address names; asks before leaving unsaved edits. */
export function App() {
  const [bootError, setBootError] = useState<string | null>(null);
  useEffect(() => {
    startSession().catch((error: unknown) =>
      setBootError(error instanceof Error ? error.message : String(error)),
    );
  }, []);
  const state = session.value;
  if (bootError !== null)
    return (
      <main class="page">
        <p class="error" role="alert">
          Livery Studio could not reach the server: {bootError}
        </p>
      </main>
    );
  if (state.status === 'loading') return <p class="boot">Loading Livery Studio…</p>;
  if (state.status === 'signed-out') return <SignIn notice={state.notice} />;
  const current = route.value;
  const leaving = pendingLeave.value;
  return (
    <>
      {current.name === 'orgs' && <OrganizationList />}
      {current.name === 'sites' && <SiteList org={current.org} />}
      {current.name === 'site' && (
        <EditorScreen
          key={`${current.org}/${current.site}`}
          org={current.org}
          siteId={current.site}
          siteSpaceId={current.siteSpaceId}
          structure={current.structure === true}
          insights={current.insights === true}
        />
      )}
      <ConfirmDialog
        open={leaving !== null}
        title="Leave without saving?"
        confirmLabel="Leave and drop my edits"
        danger
        testId="confirm-leave"
        onCancel={() => {
          pendingLeave.value = null;
        }}
        onConfirm={confirmLeave}
      >
        <p>Your unsaved changes will be lost.</p>
      </ConfirmDialog>
    </>
  );
}
