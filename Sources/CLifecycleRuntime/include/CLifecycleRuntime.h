// A minimal window onto the Swift runtime's metadata sections, for LifecycleTesting's run-time oracle.
//
// PRIVATE ABI, TEST-TIME ONLY. Everything here reads structures that the Swift compiler emits and the
// Swift runtime consumes, but that no public header promises. The layouts are documented next to the
// code that reads them in CLifecycleRuntime.c. Never call these functions on a production path.
//
// All descriptors handed out are "type context descriptors" (class, struct or enum) that live in the
// read-only data of a loaded image; they stay valid for as long as that image stays loaded.

#ifndef CLIFECYCLERUNTIME_H
#define CLIFECYCLERUNTIME_H

#include <stdbool.h>

#pragma clang assume_nonnull begin

/// Receives one type context descriptor. `context` is the pointer given to the enumeration function.
typedef void (*clr_descriptor_body)(const void *descriptor, void *_Nullable context);

/// Calls `body` with the descriptor of every class, struct or enum that has a protocol conformance record
/// for the protocol `protocol_name` declared at the top level of the module `module_name`, in every image
/// registered with the Swift runtime. Generic types are included (see `clr_descriptor_is_generic`); types
/// referenced through Objective-C names and records of any other shape are skipped.
///
/// A type that conforms to a refining protocol also has a record for the refined one (the compiler emits
/// the implied conformance), so this covers `protocol Refined: Base` conformers of `Base` too. A subclass
/// has no record of its own: see `clr_enumerate_subclass_descriptors`.
void clr_enumerate_conforming_descriptors(
    const char *module_name,
    const char *protocol_name,
    clr_descriptor_body body,
    void *_Nullable context);

/// Calls `body` with the descriptor of every non-generic class that has a superclass, taken from the type
/// metadata records of every image registered with the Swift runtime.
void clr_enumerate_subclass_descriptors(clr_descriptor_body body, void *_Nullable context);

/// Whether the descriptor describes a generic type, or a type nested in a generic context (such a type
/// has no metadata until its generic arguments are known).
bool clr_descriptor_is_generic(const void *descriptor);

/// The type metadata of a non-generic class, struct or enum, obtained by calling the descriptor's
/// metadata accessor, which instantiates the metadata if needed. NULL for a generic type, for any other
/// kind of descriptor, or when the descriptor has no accessor.
const void *_Nullable clr_metadata_for_descriptor(const void *descriptor);

/// The type context descriptor of a type metadata (for example a class's superclass), or NULL if the type
/// has none (tuples, functions, existentials, ...). Asks the runtime.
const void *_Nullable clr_descriptor_for_metadata(const void *metadata);

#pragma clang assume_nonnull end

#endif
