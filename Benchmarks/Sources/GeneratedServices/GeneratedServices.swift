// The generated service providers live in a file that the GenerateSyntheticModules plugin writes at build
// time (`generatedServiceProviders`, `ServiceProvider0000` ... `ServiceProvider0999`). This file only
// documents them.
//
// They are the non-generic counterpart of `SyntheticModules.ServiceProvidingNumbered`: ten services per
// provider, but each service a plain protocol with its own implementation, and each provider (but the
// first) requiring a service of another, as in an application. Building a registry over them measures
// what an application pays, without the cost of naming deeply nested generic types.
