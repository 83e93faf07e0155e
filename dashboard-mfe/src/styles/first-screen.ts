/** The id of the dashboard's first-screen stylesheet; the prerendered frame in the shell's index.html links it. */
export const FIRST_SCREEN_STYLES_ID = 'dashboard-first-screen-styles';
