// A profile frame's script URL shortened to where it lives: a package's path inside node_modules,
// or the path from the repository's src/, streams/ or test/ (the same file in any clone or build).
// Shared by the profile summaries (cpu-profile-stages.mjs, alloc-profile-summary.mjs).
export const where = (url) =>
  url
    .replace(/^file:\/\//, "")
    .replace(/.*\/node_modules\//, "")
    .replace(/.*?\/(src|streams|test)\//, "$1/");
