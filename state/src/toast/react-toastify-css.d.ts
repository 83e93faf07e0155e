/** react-toastify's stylesheet, as text: webpack's rule for .css files is asset/source. */
declare module 'react-toastify/ReactToastify.css' {
  const css: string;
  export default css;
}
