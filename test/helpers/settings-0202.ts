/**
 * A complete settings object valid under GitBook 0.202's `SiteCustomizationSettingsInput`, using
 * every field 0.202 adds (custom and heading fonts, code themes, social accounts, localized texts,
 * the header's primary link, page action items, AI texts), already in Livery's stored form, so a
 * PUT answers it unchanged. A new object on every call.
 */
export function settings0202() {
  const acmeSans = {
    id: 'acme-sans',
    custom: true,
    fontFamily: 'Acme Sans',
    fontFaces: [
      {
        weight: 400,
        sources: [{ url: 'https://fonts.acme.example/sans-400.woff2', format: 'woff2' as const }],
      },
      {
        weight: 700,
        sources: [
          { url: 'https://fonts.acme.example/sans-700.woff2', format: 'woff2' as const },
          { url: 'https://fonts.acme.example/sans-700.woff' },
        ],
      },
    ],
  };
  return {
    title: 'Acme Docs',
    localizedTitle: { fr: 'Docs Acme', de: 'Acme Dokumentation' },
    styling: {
      theme: 'muted' as const,
      primaryColor: { light: '#0B5FFF', dark: '#7AA7FF' },
      tint: { color: { light: '#F2F4F8', dark: '#1B1D22' } },
      infoColor: { light: '#787878', dark: '#787878' },
      successColor: { light: '#00C950', dark: '#00C950' },
      warningColor: { light: '#FE9A00', dark: '#FE9A00' },
      dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
      corners: 'circular' as const,
      depth: 'flat' as const,
      links: 'accent' as const,
      font: acmeSans,
      headingFont: 'RobotoSlab' as const,
      monospaceFont: 'JetBrainsMono' as const,
      background: 'plain' as const,
      icons: 'duotone' as const,
      codeTheme: {
        default: { light: 'github-light' as const, dark: 'dracula' as const },
        openapi: { light: 'one-light' as const, dark: 'one-dark-pro' as const },
      },
      sidebar: { background: 'filled' as const, list: 'pill' as const },
      search: 'subtle' as const,
    },
    internationalization: { locale: 'en' as const },
    favicon: { emoji: '📘' },
    header: {
      preset: 'default' as const,
      logo: { light: 'https://acme.example/logo.svg', dark: 'https://acme.example/logo-dark.svg' },
      primaryLink: { kind: 'url' as const, url: 'https://acme.example' },
      links: [
        {
          title: 'Guides',
          localizedTitle: { fr: 'Guides', de: 'Anleitungen' },
          style: 'link' as const,
          to: null,
          links: [
            { title: 'Tagged', to: { kind: 'tag' as const, tag: 'getting-started' } },
            {
              title: 'Pricing',
              localizedTitle: { de: 'Preise' },
              to: { kind: 'url' as const, url: 'https://acme.example/pricing' },
            },
          ],
          condition: 'visitor.claims.beta == true',
        },
        {
          title: 'Sign up',
          style: 'button-primary' as const,
          to: { kind: 'url' as const, url: 'https://acme.example/signup' },
          links: [],
        },
      ],
    },
    footer: {
      groups: [
        {
          title: 'Company',
          localizedTitle: { de: 'Firma' },
          links: [{ title: 'About', to: { kind: 'page' as const, page: 'about' } }],
        },
      ],
      copyright: '© Acme',
    },
    announcement: {
      enabled: true,
      message: 'Version 2 is out',
      localizedMessage: { de: 'Version 2 ist da' },
      link: {
        title: 'Read more',
        localizedTitle: { de: 'Mehr' },
        to: { kind: 'url' as const, url: 'https://acme.example/v2' },
      },
      style: 'success' as const,
    },
    themes: { default: 'system' as const, toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: true },
    aiSearch: { enabled: true },
    ai: {
      mode: 'assistant' as const,
      greeting: 'Ask me about Acme',
      localizedGreeting: { de: 'Fragen Sie mich zu Acme' },
      suggestions: ['How do I install it?', 'What does it cost?'],
      instructions: 'Answer briefly.',
      pageLinkSummaries: { enabled: true },
    },
    advancedCustomization: { enabled: true },
    git: { showEditLink: false },
    pageActions: {
      items: ['assistant' as const, 'markdown' as const, 'mcp' as const],
      externalAI: false,
      markdown: true,
    },
    externalLinks: { target: 'blank' as const },
    pagination: { enabled: true },
    trademark: { enabled: false },
    privacyPolicy: { url: 'https://acme.example/privacy' },
    socialPreview: { url: 'https://acme.example/preview.png' },
    socialAccounts: [
      { platform: 'github' as const, handle: 'acme', display: { footer: true, header: true } },
      {
        platform: 'bluesky' as const,
        handle: 'acme.example',
        display: { footer: true, header: false },
      },
    ],
    insights: { trackingCookie: false },
  };
}
