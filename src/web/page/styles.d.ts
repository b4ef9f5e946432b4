// The page imports its styles for the bundler (bin/build.mjs), which writes them to app.css.
declare module '*.css';
