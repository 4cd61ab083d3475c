import { useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import type { Abilities } from '../api/session';
import { getSite, listSiteSpaces, type Site, type SiteSpace } from '../api/sites';
import { hrefOf, setLeaveGuard } from '../router';
import { createEditor, type EditorTarget, fetchLoaded, type Loaded } from '../state/editor';
import { createSaveModel } from '../state/save';
import { abilitiesOf } from '../state/session';
import { ConflictDialog } from './ConflictDialog';
import { Form } from './Form';
import { History } from './History';
import { Insights } from './Insights';
import { Nav } from './Nav';
import { Preview } from './Preview';
import { ReadOnlyNotice } from './ReadOnlyNotice';
import { SaveBar } from './SaveBar';
import { SiteBar } from './SiteBar';
import { StructureEditor } from './StructureEditor';
import { useAsync } from './shell/useAsync';

interface SiteData {
  site: Site;
  siteSpaces: SiteSpace[];
  abilities: Abilities;
}

const refusal = (abilities: Abilities, operation: string) => {
  const can = abilities.can[operation];
  return can === true ? null : (can ?? 'You may not do this.');
};

/** A site's screen: its bar, then the editor of its settings or of one variant's override. */
export function EditorScreen({
  org,
  siteId,
  siteSpaceId,
  structure = false,
  insights = false,
}: {
  org: string;
  siteId: string;
  siteSpaceId?: string | undefined;
  /** The structure screen (sections, groups, links, variants) instead of an editor. */
  structure?: boolean;
  /** The insights screen (page views, searches) instead of an editor. */
  insights?: boolean;
}) {
  const data = useAsync<SiteData>(async () => {
    const [site, siteSpaces, abilities] = await Promise.all([
      getSite(org, siteId),
      listSiteSpaces(org, siteId),
      abilitiesOf(org),
    ]);
    return { site, siteSpaces, abilities };
  }, [org, siteId]);
  const site = useSignal<Site | null>(null);
  const variant =
    data.status === 'done' ? data.value.siteSpaces.find((s) => s.id === siteSpaceId) : undefined;
  const shown = site.value ?? (data.status === 'done' ? data.value.site : null);
  const crumbs = [
    { label: 'Organizations', href: '#/' },
    { label: 'Sites', href: hrefOf({ name: 'sites', org }) },
    { label: shown?.title ?? 'Site', href: hrefOf({ name: 'site', org, site: siteId }) },
    ...(siteSpaceId === undefined ? [] : [{ label: variant?.title ?? 'Variant' }]),
    ...(structure ? [{ label: 'Structure' }] : []),
    ...(insights ? [{ label: 'Insights' }] : []),
  ];
  return (
    <>
      <Nav crumbs={crumbs} />
      {data.status === 'loading' && (
        <p class="page muted" role="status">
          Loading…
        </p>
      )}
      {data.status === 'failed' && (
        <p class="page error" role="alert">
          {data.error}
        </p>
      )}
      {data.status === 'done' && shown !== null && (
        <>
          <SiteBar
            org={org}
            site={shown}
            siteSpaces={data.value.siteSpaces}
            siteSpaceId={siteSpaceId}
            structure={structure}
            insights={insights}
            abilities={data.value.abilities}
            onSite={(next) => {
              site.value = next;
            }}
          />
          {insights ? (
            <Insights org={org} siteId={siteId} />
          ) : structure ? (
            <StructureEditor
              org={org}
              siteId={siteId}
              refused={refusal(data.value.abilities, 'sortSiteStructure')}
            />
          ) : (
            <OpenEditor
              key={siteSpaceId ?? ''}
              target={{
                organizationId: org,
                siteId,
                ...(siteSpaceId === undefined ? {} : { siteSpaceId }),
              }}
              abilities={data.value.abilities}
              siteSpaces={data.value.siteSpaces}
            />
          )}
        </>
      )}
    </>
  );
}

function OpenEditor(props: {
  target: EditorTarget;
  abilities: Abilities;
  siteSpaces: SiteSpace[];
}) {
  const { target } = props;
  const loaded = useAsync(() => fetchLoaded(target), [target.siteSpaceId]);
  if (loaded.status === 'loading')
    return (
      <p class="page muted" role="status">
        Loading the settings…
      </p>
    );
  if (loaded.status === 'failed')
    return (
      <p class="page error" role="alert">
        {loaded.error}
      </p>
    );
  return <Workspace {...props} loaded={loaded.value} />;
}

function Workspace({
  target,
  abilities,
  siteSpaces,
  loaded,
}: {
  target: EditorTarget;
  abilities: Abilities;
  siteSpaces: SiteSpace[];
  loaded: Loaded;
}) {
  const isVariant = target.siteSpaceId !== undefined;
  const readOnly = refusal(
    abilities,
    isVariant ? 'overrideSiteSpaceCustomizationById' : 'updateSiteCustomizationById',
  );
  const { editor, save } = useMemo(() => {
    const editor = createEditor(target, loaded, readOnly);
    return { editor, save: createSaveModel(editor, loaded) };
  }, []); // one editor per mounted workspace: its parent remounts it for another target
  const historyOpen = useSignal(false);

  // Unsaved edits are guarded: in-studio navigation asks, closing the tab warns.
  useEffect(() => {
    const unguard = setLeaveGuard(() => editor.dirty.value);
    const warn = (event: BeforeUnloadEvent) => {
      if (editor.dirty.value) event.preventDefault();
    };
    addEventListener('beforeunload', warn);
    return () => {
      unguard();
      removeEventListener('beforeunload', warn);
      editor.dispose();
    };
  }, [editor]);

  const restoreRefused = refusal(
    abilities,
    isVariant ? 'restoreSiteSpaceCustomizationRevision' : 'restoreSiteCustomizationRevision',
  );
  const listRefused = refusal(
    abilities,
    isVariant ? 'listSiteSpaceCustomizationRevisions' : 'listSiteCustomizationRevisions',
  );
  return (
    <>
      {editor.readOnly !== null && <ReadOnlyNotice reason={editor.readOnly} />}
      <SaveBar
        editor={editor}
        save={save}
        historyOpen={historyOpen.value}
        onHistory={() => {
          historyOpen.value = !historyOpen.value;
        }}
      />
      <div class="workspace">
        <section class="pane pane-form" aria-label="Settings" data-testid="form-pane">
          <Form editor={editor} />
        </section>
        <section class="pane pane-preview" aria-label="Preview" data-testid="preview-pane">
          <Preview editor={editor} siteSpaces={siteSpaces} />
        </section>
        {historyOpen.value && (
          <History
            editor={editor}
            save={save}
            restoreRefused={readOnly ?? restoreRefused}
            listRefused={listRefused}
            onClose={() => {
              historyOpen.value = false;
            }}
          />
        )}
      </div>
      <ConflictDialog save={save} />
    </>
  );
}
