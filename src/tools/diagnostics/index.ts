export { createDiagnosticsHub, type Diagnostics, type DiagnosticsHubOptions } from "./diagnostics-hub.js";
export { createProjectDiagnosticsTool } from "./project-diagnostics.js";
export { formatProblem, newProblems, type Problem } from "./problems.js";
