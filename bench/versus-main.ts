import { benchVersusBare } from "./versus-bare.js";

/** Only the "versus bare" section: `npm run build && node --import tsx bench/versus-main.ts`. */
await benchVersusBare();
