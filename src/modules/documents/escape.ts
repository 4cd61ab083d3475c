/** Text for HTML element content and attribute values: the one escape (html/safe-html.ts). */
export { escapeHtml } from '../../html/safe-html.js';
