// What the front ends' webpack builds make of an imported stylesheet or picture (scripts/webpack):
// a stylesheet's text, a picture's URL. One declaration for the shell and every remote.
declare module '*.css' {
  const css: string;
  export default css;
}
declare module '*.svg' {
  const url: string;
  export default url;
}
