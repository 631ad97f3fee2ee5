export { createDiagnosticsHub, type Diagnostics, type DiagnosticsHubOptions } from "./diagnostics-hub.js";
export { formatProblem, newProblems, type Problem } from "./problems.js";
