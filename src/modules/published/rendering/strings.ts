/**
 * The published site's own words (issue 7), in the customization's `internationalization.locale`.
 * English, French and German are complete; every other locale GitBook allows falls back to
 * English word by word, so a partial translation is still usable.
 */
const EN = {
  search: 'Search',
  noResults: 'No results',
  onThisPage: 'On this page',
  tableOfContents: 'Table of contents',
  previous: 'Previous',
  next: 'Next',
  wasThisHelpful: 'Was this page helpful?',
  ratingGood: 'Yes',
  ratingOk: 'Somewhat',
  ratingBad: 'No',
  thanksForFeedback: 'Thank you for your feedback!',
  editPage: 'Edit this page',
  privacyPolicy: 'Privacy policy',
  poweredBy: 'Powered by Livery',
  notFoundTitle: 'Page not found',
  notFoundText: 'The page you are looking for does not exist or has moved.',
  backHome: 'Back to the start',
  toggleTheme: 'Switch between light and dark mode',
  dismiss: 'Dismiss',
  signInRequired: 'Sign in to read this documentation.',
  copyPage: 'Copy page',
  copied: 'Copied',
  viewMarkdown: 'View as Markdown',
  openInChatGPT: 'Open in ChatGPT',
  openInClaude: 'Open in Claude',
  aiPrompt: 'Read {url} so I can ask questions about it.',
  exportPdf: 'Export as PDF',
  moreActions: 'More page actions',
  pageActions: 'Page actions',
  socialAccounts: 'Social accounts',
  sections: 'Sections',
  externalLink: '(external site)',
  pageTooLarge: 'This page is too large to show formatted in time: here is its text as written.',
  pageFailed: 'This page could not be shown formatted: here is its text as written.',
} as const;

export type StringKey = keyof typeof EN;
export type Strings = Readonly<Record<StringKey, string>>;

const FR: Strings = {
  search: 'Rechercher',
  noResults: 'Aucun résultat',
  onThisPage: 'Sur cette page',
  tableOfContents: 'Table des matières',
  previous: 'Précédent',
  next: 'Suivant',
  wasThisHelpful: 'Cette page vous a-t-elle été utile ?',
  ratingGood: 'Oui',
  ratingOk: 'En partie',
  ratingBad: 'Non',
  thanksForFeedback: 'Merci pour votre avis !',
  editPage: 'Modifier cette page',
  privacyPolicy: 'Politique de confidentialité',
  poweredBy: 'Propulsé par Livery',
  notFoundTitle: 'Page introuvable',
  notFoundText: "La page que vous cherchez n'existe pas ou a été déplacée.",
  backHome: "Retour à l'accueil",
  toggleTheme: 'Basculer entre le mode clair et le mode sombre',
  dismiss: 'Fermer',
  signInRequired: 'Connectez-vous pour lire cette documentation.',
  copyPage: 'Copier la page',
  copied: 'Copié',
  viewMarkdown: 'Voir en Markdown',
  openInChatGPT: 'Ouvrir dans ChatGPT',
  openInClaude: 'Ouvrir dans Claude',
  aiPrompt: 'Lis {url} pour que je puisse te poser des questions à son sujet.',
  exportPdf: 'Exporter en PDF',
  moreActions: 'Autres actions sur la page',
  pageActions: 'Actions sur la page',
  socialAccounts: 'Réseaux sociaux',
  sections: 'Rubriques',
  externalLink: '(site externe)',
  pageTooLarge:
    'Cette page est trop longue pour être mise en forme à temps : voici son texte tel qu’il est écrit.',
  pageFailed: 'Cette page n’a pas pu être mise en forme : voici son texte tel qu’il est écrit.',
};

const DE: Strings = {
  search: 'Suchen',
  noResults: 'Keine Ergebnisse',
  onThisPage: 'Auf dieser Seite',
  tableOfContents: 'Inhaltsverzeichnis',
  previous: 'Zurück',
  next: 'Weiter',
  wasThisHelpful: 'War diese Seite hilfreich?',
  ratingGood: 'Ja',
  ratingOk: 'Teilweise',
  ratingBad: 'Nein',
  thanksForFeedback: 'Danke für Ihr Feedback!',
  editPage: 'Diese Seite bearbeiten',
  privacyPolicy: 'Datenschutzerklärung',
  poweredBy: 'Bereitgestellt von Livery',
  notFoundTitle: 'Seite nicht gefunden',
  notFoundText: 'Die gesuchte Seite existiert nicht oder wurde verschoben.',
  backHome: 'Zurück zum Anfang',
  toggleTheme: 'Zwischen hellem und dunklem Modus wechseln',
  dismiss: 'Schließen',
  signInRequired: 'Melden Sie sich an, um diese Dokumentation zu lesen.',
  copyPage: 'Seite kopieren',
  copied: 'Kopiert',
  viewMarkdown: 'Als Markdown anzeigen',
  openInChatGPT: 'In ChatGPT öffnen',
  openInClaude: 'In Claude öffnen',
  aiPrompt: 'Lies {url}, damit ich dir Fragen dazu stellen kann.',
  exportPdf: 'Als PDF exportieren',
  moreActions: 'Weitere Seitenaktionen',
  pageActions: 'Seitenaktionen',
  socialAccounts: 'Soziale Netzwerke',
  sections: 'Bereiche',
  externalLink: '(externe Website)',
  pageTooLarge:
    'Diese Seite ist zu groß, um rechtzeitig formatiert zu werden: Hier ist ihr Text, wie er geschrieben wurde.',
  pageFailed:
    'Diese Seite konnte nicht formatiert werden: Hier ist ihr Text, wie er geschrieben wurde.',
};

const TRANSLATIONS: Readonly<Record<string, Partial<Strings>>> = { en: EN, fr: FR, de: DE };

/** The site's words in `locale`, each missing one in English. */
export function stringsFor(locale: string): Strings {
  return { ...EN, ...(TRANSLATIONS[locale] ?? {}) };
}

/** Locales with a complete translation. */
export const TRANSLATED_LOCALES = Object.keys(TRANSLATIONS);
