// A short search over the toolbench catalog (../shared/eval/toolbench).
console.log('tool-search demo: the engine is not built yet.');
