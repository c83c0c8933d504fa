/** Plain CSS files are imported for their side effect (webpack extracts them). */
declare module '*.css';
