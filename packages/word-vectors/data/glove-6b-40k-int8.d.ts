/** The shipped word vectors in the binary format of `src/word-vector-file.ts`, as base64. */
declare const data: string;
export default data;
