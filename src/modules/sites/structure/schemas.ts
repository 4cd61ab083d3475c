import { type Static, type TSchema, Type } from 'typebox';
import { Enum, OrNull } from '../../../http/schema-helpers.js';
import { LocalizedText } from '../../../settings/settings-parts.js';
import { GitBookShapes, unsupportedField } from '../../../unsupported-inputs.js';
import { SiteSpaceSchema } from '../schemas.js';
import { STRUCTURE_INPUTS } from './unsupported.js';

// GitBook 0.202's shapes of a site's structure (SiteSection, SiteSectionGroup, SiteExternalLink,
// SiteStructure) and the bodies of its operations.

export const Icon = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$',
  description: 'Name of the icon, e.g. gear (letters, digits and "-")',
});
const SectionTitle = Type.String({
  minLength: 2,
  maxLength: 128,
  description: 'Title of the site section',
});
const GroupTitle = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Title of the site section group',
});
/** One URL path segment: a section is served at the site's URL + `/` + path. */
export const SectionPath = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._~-]+$',
  description:
    'Path to the section on the site: one URL path segment (letters, digits, ".", "_", "~", "-"), unique within the site',
});
const Description = Type.String({
  minLength: 0,
  maxLength: 256,
  description: 'Description of the site section',
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Absolute http or https URL',
});
const Expression = Type.String({ minLength: 0, maxLength: 1024 });
export const Localized128 = LocalizedText(128);
export const Localized256 = LocalizedText(256);
const PublishedUrls = Type.Object(
  {
    location: Type.Optional(
      Type.String({ format: 'uri', description: 'API URL of the section (GitBook 0.130)' }),
    ),
    published: Type.Optional(
      Type.String({ format: 'uri', description: 'Only while the site is published' }),
    ),
  },
  { description: 'URLs associated with the object' },
);

export const SiteSectionSchema = Type.Object(
  {
    object: Type.Literal('site-section'),
    id: Type.String({ description: 'Unique identifier of the site section' }),
    title: Type.String(),
    localizedTitle: Type.Optional(Localized128),
    description: Type.Optional(Type.String()),
    localizedDescription: Type.Optional(Localized256),
    default: Type.Boolean({ description: 'Whether this is the default section for the site' }),
    draft: Type.Boolean({ description: 'Whether the site section is draft and not live' }),
    path: Type.String(),
    sectionGroup: Type.Optional(
      Type.String({ description: 'ID of the section group the section belongs to' }),
    ),
    siteSpaces: Type.Array(SiteSpaceSchema),
    urls: PublishedUrls,
    icon: Type.Optional(Type.String()),
  },
  { title: 'SiteSection' },
);
export type SiteSection = Static<typeof SiteSectionSchema>;

export const SiteExternalLinkSchema = Type.Object(
  {
    object: Type.Literal('site-external-link'),
    id: Type.String({ description: 'Unique identifier of the external link' }),
    title: Type.String(),
    localizedTitle: Type.Optional(Localized128),
    description: Type.Optional(Type.String()),
    localizedDescription: Type.Optional(Localized256),
    icon: Type.Optional(Type.String()),
    url: Type.String({ description: 'Absolute HTTP or HTTPS URL opened by the external link' }),
    sectionGroup: Type.Optional(
      Type.String({ description: 'ID of the section group holding the link; absent at the root' }),
    ),
    draft: Type.Boolean({ description: 'Whether the external link is draft and not live' }),
  },
  { title: 'SiteExternalLink' },
);
export type SiteExternalLink = Static<typeof SiteExternalLinkSchema>;

/** A group's fields; `children` differ by depth (groups nest one level only). */
const groupFields = <C extends TSchema>(children: C) => ({
  object: Type.Literal('site-section-group'),
  id: Type.String({ description: 'Unique identifier of the site section group' }),
  title: Type.String(),
  localizedTitle: Type.Optional(Localized128),
  sections: Type.Array(SiteSectionSchema, {
    description: "The group's sections (deprecated in GitBook: use children)",
  }),
  sectionGroup: Type.Optional(
    Type.String({ description: 'ID of the parent section group this group belongs to' }),
  ),
  draft: Type.Boolean({ description: 'Whether the site section group is draft and not live' }),
  children: Type.Array(children, {
    description: 'Its sections, groups and external links, in order',
  }),
  icon: Type.Optional(Type.String()),
});

const NestedGroupSchema = Type.Object(
  groupFields(Type.Union([SiteSectionSchema, SiteExternalLinkSchema])),
  { title: 'SiteSectionGroup' },
);
export const SiteSectionGroupSchema = Type.Object(
  groupFields(Type.Union([SiteSectionSchema, NestedGroupSchema, SiteExternalLinkSchema])),
  { title: 'SiteSectionGroup' },
);
export type SiteSectionGroup = Omit<Static<typeof NestedGroupSchema>, 'children'> & {
  children: (SiteSection | SiteSectionGroup | SiteExternalLink)[];
};

export type SiteStructureNode = SiteSection | SiteSectionGroup | SiteExternalLink;

export const SiteStructureSchema = Type.Union(
  [
    Type.Object({
      type: Type.Literal('sections'),
      structure: Type.Array(
        Type.Union([SiteSectionSchema, SiteSectionGroupSchema, SiteExternalLinkSchema]),
      ),
    }),
    Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(SiteSpaceSchema) }),
  ],
  { title: 'SiteStructure' },
);
export type SiteStructure =
  | { type: 'sections'; structure: SiteStructureNode[] }
  | { type: 'siteSpaces'; structure: Static<typeof SiteSpaceSchema>[] };

export const AddSectionToSiteSchema = Type.Object(
  {
    spaceId: OrNull(
      Type.String({
        minLength: 1,
        description:
          "ID of a space of the organization, or null to create a new space (titled like the section): the section's first variant",
      }),
    ),
    title: Type.Optional(OrNull(SectionTitle)),
    icon: Type.Optional(OrNull(Icon)),
    draft: Type.Optional(Type.Boolean({ description: 'Created as a draft (not published)' })),
    siteSectionGroupId: Type.Optional(
      Type.String({ minLength: 1, description: 'ID of the section group to create it in' }),
    ),
    template: unsupportedField(STRUCTURE_INPUTS.template, GitBookShapes.object),
    pageId: unsupportedField(STRUCTURE_INPUTS.pageId, Type.String()),
  },
  { additionalProperties: false, title: 'AddSectionToSite' },
);
export type AddSectionToSite = Static<typeof AddSectionToSiteSchema>;

export const AddSectionGroupToSiteSchema = Type.Object(
  {
    title: GroupTitle,
    icon: Type.Optional(OrNull(Icon)),
    sections: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        maxItems: 100,
        description: 'IDs of sections of the site to move into the new group, in this order',
      }),
    ),
    parent: Type.Optional(
      Type.String({ minLength: 1, description: 'ID of a root section group to nest it in' }),
    ),
    draft: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'AddSectionGroupToSite' },
);
export type AddSectionGroupToSite = Static<typeof AddSectionGroupToSiteSchema>;

export const AddExternalLinkToSiteSchema = Type.Object(
  {
    title: SectionTitle,
    localizedTitle: Type.Optional(Localized128),
    description: Type.Optional(OrNull(Description)),
    localizedDescription: Type.Optional(OrNull(Localized256)),
    icon: Type.Optional(OrNull(Icon)),
    url: Url,
    parent: Type.Optional(
      Type.String({ minLength: 1, description: 'ID of the section group to create it in' }),
    ),
    draft: Type.Optional(Type.Boolean()),
    condition: unsupportedField(STRUCTURE_INPUTS.condition, OrNull(Expression)),
  },
  { additionalProperties: false, title: 'AddExternalLinkToSite' },
);
export type AddExternalLinkToSite = Static<typeof AddExternalLinkToSiteSchema>;

export const NodeKindSchema = Enum([
  'site-space',
  'site-section',
  'site-section-group',
  'site-external-link',
]);

export const UpdateSiteSectionSchema = Type.Object(
  {
    title: Type.Optional(SectionTitle),
    localizedTitle: Type.Optional(Localized128),
    path: Type.Optional(SectionPath),
    defaultSiteSpace: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'ID of a site-space of this section to make its default',
      }),
    ),
    icon: Type.Optional(OrNull(Icon)),
    draft: Type.Optional(
      Type.Boolean({ description: 'true: left out of the published site (not the default)' }),
    ),
    description: Type.Optional(OrNull(Description)),
    localizedDescription: Type.Optional(Localized256),
    siteSectionGroupId: Type.Optional(
      OrNull(
        Type.String({
          minLength: 1,
          description: 'A section group of the site to move it into (last); null: the root',
        }),
      ),
    ),
    condition: unsupportedField(STRUCTURE_INPUTS.condition, OrNull(Expression)),
  },
  { additionalProperties: false, title: 'UpdateSiteSection' },
);
export type UpdateSiteSection = Static<typeof UpdateSiteSectionSchema>;

export const UpdateSiteSectionGroupSchema = Type.Object(
  {
    title: Type.Optional(GroupTitle),
    localizedTitle: Type.Optional(Localized128),
    icon: Type.Optional(OrNull(Icon)),
    draft: Type.Optional(Type.Boolean()),
    parentSectionGroupId: Type.Optional(
      OrNull(
        Type.String({
          minLength: 1,
          description: 'A root section group to move it into (last); null: the root',
        }),
      ),
    ),
  },
  { additionalProperties: false, title: 'UpdateSiteSectionGroup' },
);
export type UpdateSiteSectionGroup = Static<typeof UpdateSiteSectionGroupSchema>;

export const UpdateSiteExternalLinkSchema = Type.Object(
  {
    title: Type.Optional(SectionTitle),
    localizedTitle: Type.Optional(OrNull(Localized128)),
    description: Type.Optional(OrNull(Description)),
    localizedDescription: Type.Optional(OrNull(Localized256)),
    icon: Type.Optional(OrNull(Icon)),
    url: Type.Optional(Url),
    parent: Type.Optional(
      OrNull(
        Type.String({
          minLength: 1,
          description: 'A section group to move it into (last); null: the root',
        }),
      ),
    ),
    draft: Type.Optional(Type.Boolean()),
    condition: unsupportedField(STRUCTURE_INPUTS.condition, OrNull(Expression)),
  },
  { additionalProperties: false, title: 'UpdateSiteExternalLink' },
);
export type UpdateSiteExternalLink = Static<typeof UpdateSiteExternalLinkSchema>;

const pointer = <K extends string, T extends readonly string[]>(key: K, types: T) =>
  Type.Object(
    {
      type: Enum(types),
      [key]: Type.String({ minLength: 1 }),
    } as { type: ReturnType<typeof Enum<T>> } & Record<K, ReturnType<typeof Type.String>>,
    { additionalProperties: false },
  );
const movePosition = <P extends TSchema>(ref: P, description: string) =>
  Type.Object(
    { before: Type.Optional(ref), after: Type.Optional(ref) },
    { additionalProperties: false, description },
  );

const AT_END = 'Without it, the item goes last';
export const MoveSiteSectionSchema = Type.Object(
  {
    position: Type.Optional(
      movePosition(
        pointer('siteSection', ['site-section'] as const),
        `Before or after a section (which may be in a group: the section joins it). ${AT_END} at the root`,
      ),
    ),
  },
  { additionalProperties: false, title: 'MoveSiteSection' },
);
export type MoveSiteSection = Static<typeof MoveSiteSectionSchema>;

export const MoveSiteSectionGroupSchema = Type.Object(
  {
    position: Type.Optional(
      movePosition(
        pointer('id', ['site-section', 'site-section-group'] as const),
        `Before or after a section or group, among its siblings. ${AT_END} at the root`,
      ),
    ),
  },
  { additionalProperties: false, title: 'MoveSiteSectionGroup' },
);
export type MoveSiteSectionGroup = Static<typeof MoveSiteSectionGroupSchema>;

export const MoveSiteSpaceSchema = Type.Object(
  {
    position: Type.Optional(
      movePosition(
        pointer('siteSpace', ['site-space'] as const),
        `Before or after a site-space (of any section: it joins that section). ${AT_END} in its section`,
      ),
    ),
  },
  { additionalProperties: false, title: 'MoveSiteSpace' },
);
export type MoveSiteSpace = Static<typeof MoveSiteSpaceSchema>;

const ItemPointer = pointer('id', [
  'site-space',
  'site-section',
  'site-section-group',
  'site-external-link',
] as const);
export const SortSiteStructureSchema = Type.Object(
  {
    item: ItemPointer,
    position: movePosition(
      ItemPointer,
      `Before or after an item of the same level (site-spaces among site-spaces; sections, groups and links among each other). ${AT_END} of its level`,
    ),
  },
  { additionalProperties: false, title: 'SortSiteStructure' },
);
export type SortSiteStructure = Static<typeof SortSiteStructureSchema>;

export const DuplicateSiteSpaceSchema = Type.Object(
  {
    draft: Type.Optional(
      Type.Boolean({ description: 'Whether the copy is a draft (left out of the published site)' }),
    ),
  },
  { additionalProperties: false, title: 'DuplicateSiteSpace' },
);
export type DuplicateSiteSpace = Static<typeof DuplicateSiteSpaceSchema>;

export const SiteStructureItemSchema = Type.Union(
  [SiteSpaceSchema, SiteSectionSchema, SiteSectionGroupSchema, SiteExternalLinkSchema],
  { title: 'SiteStructureItem' },
);
