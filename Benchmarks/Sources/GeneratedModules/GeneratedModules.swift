// The generated module types live in a file that the GenerateSyntheticModules plugin writes at build
// time (`generatedModuleTypes`, `Module00000` ... `Module09999`). This file only documents them.
//
// They are the non-generic counterpart of `SyntheticModules.LeanNumbered`: same priorities, same
// dependencies, one hook each, but a short, plain type name and separate code per type. Comparing the two
// shows how much of building a proxy is the cost of naming deeply nested generic types, and how
// dispatch behaves when every call lands on different code.
