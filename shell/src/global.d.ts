declare module '*.css' {
  const css: string;
  export default css;
}
declare module '*.svg' {
  const url: string;
  export default url;
}
