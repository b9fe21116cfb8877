// PRIVATE ABI, TEST-TIME ONLY. See CLifecycleRuntime.h.
//
// Every layout below is the one the Swift compiler (lib/IRGen) emits and the Swift runtime
// (include/swift/ABI/Metadata.h, include/swift/ABI/MetadataValues.h) reads, as of Swift 5 and later; the
// Swift 5 ABI made them stable on Apple platforms and the same shapes are used on Linux. The section
// table comes from the toolchain's `usr/lib/swift/shims/MetadataSections.h`.
//
// Everything is read defensively: a record or descriptor of a kind we do not understand is skipped,
// never followed further.

#include "CLifecycleRuntime.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// MARK: - Finding the sections

// The two sections read here. Both are arrays of 32-bit records (described where they are read).
typedef enum {
    // `swift5_protocol_conformances` (ELF) / `__TEXT,__swift5_proto` (Mach-O): protocol conformance records.
    CLR_SECTION_CONFORMANCES,
    // `swift5_type_metadata` (ELF) / `__TEXT,__swift5_types` (Mach-O): type metadata records.
    CLR_SECTION_TYPES,
} clr_section;

// Receives one image's records of one section.
typedef void (*clr_section_visitor)(const int32_t *records, size_t count, void *context);

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#include <mach-o/getsect.h>

// Apple platforms have no section registry in the runtime; dyld lists the loaded images and their
// sections. (Not exercised by this package's CI, which runs on Linux. On arm64e, pointers in indirect
// slots and the accessor call would also need pointer authentication, which is not handled.)
static void clr_for_each_section(clr_section which, clr_section_visitor visit, void *context) {
    const char *name = which == CLR_SECTION_CONFORMANCES ? "__swift5_proto" : "__swift5_types";
    uint32_t images = _dyld_image_count();
    for (uint32_t image = 0; image < images; image++) {
        const struct mach_header *header = _dyld_get_image_header(image);
        if (header == NULL) {
            continue;
        }
        unsigned long size = 0;
#if __LP64__
        const uint8_t *start = getsectiondata((const struct mach_header_64 *)header, "__TEXT", name, &size);
#else
        const uint8_t *start = getsectiondata(header, "__TEXT", name, &size);
#endif
        if (start != NULL && size >= sizeof(int32_t)) {
            visit((const int32_t *)start, size / sizeof(int32_t), context);
        }
    }
}

#else

// One section of one image: mirrors `MetadataSectionRange` in MetadataSections.h.
typedef struct {
    uintptr_t start;
    size_t length;
} clr_section_range;

// Mirrors the leading fields of `struct MetadataSections` in MetadataSections.h, up to and including the
// last field read here. The runtime owns the (longer) structure and only ever appends fields to it, so
// this prefix stays valid; `version` is at least 1 in every layout that has these fields.
typedef struct {
    uintptr_t version;
    const void *base_address;
    void *unused0;
    void *unused1;
    clr_section_range swift5_protocols;
    clr_section_range swift5_protocol_conformances;
    clr_section_range swift5_type_metadata;
} clr_metadata_sections;

// Exported by libswiftCore on ELF and COFF platforms (stdlib/public/runtime/ImageInspectionCommon.cpp),
// declared in no public header. It calls `body` once per image that registered its sections with the
// runtime (every Swift image registers itself when it is loaded, through swiftrt.o), on a snapshot of the
// list; `body` returns false to stop early.
extern void swift_enumerateAllMetadataSections(
    bool (*body)(const clr_metadata_sections *sections, void *context),
    void *context);

typedef struct {
    clr_section which;
    clr_section_visitor visit;
    void *context;
} clr_section_walk;

static bool clr_visit_image(const clr_metadata_sections *sections, void *context) {
    const clr_section_walk *walk = context;
    if (sections == NULL || sections->version < 1) {
        return true;
    }
    clr_section_range range = walk->which == CLR_SECTION_CONFORMANCES ? sections->swift5_protocol_conformances
                                                                      : sections->swift5_type_metadata;
    if (range.start != 0 && range.length >= sizeof(int32_t)) {
        walk->visit((const int32_t *)range.start, range.length / sizeof(int32_t), walk->context);
    }
    return true;
}

static void clr_for_each_section(clr_section which, clr_section_visitor visit, void *context) {
    clr_section_walk walk = {which, visit, context};
    swift_enumerateAllMetadataSections(clr_visit_image, &walk);
}

#endif

// Exported by libswiftCore on every platform (include/swift/Runtime/Metadata.h, SWIFT_CC(swift)): the
// type context descriptor of any metadata, or NULL if it has none.
extern const void *swift_getTypeContextDescriptor(const void *metadata) __attribute__((swiftcall));

// MARK: - Relative pointers

// Swift metadata refers to other metadata with 32-bit signed offsets from the address of the offset
// field itself (`RelativeDirectPointer` in include/swift/Basic/RelativePointer.h). Zero means null.
static const void *clr_resolve_direct(const int32_t *field) {
    int32_t offset = *field;
    if (offset == 0) {
        return NULL;
    }
    return (const char *)field + offset;
}

// `RelativeIndirectablePointer`: as above, but when the low bit of the offset is set the target is a
// pointer-sized slot (a GOT-like entry, used for references across images) that holds the address.
static const void *clr_resolve_indirectable(const int32_t *field) {
    int32_t offset = *field;
    if (offset == 0) {
        return NULL;
    }
    const char *target = (const char *)field + (offset & ~(int32_t)1);
    if (offset & 1) {
        return *(const void *const *)target;
    }
    return target;
}

// MARK: - Context descriptors

// Every context descriptor starts with (include/swift/ABI/Metadata.h, `TargetContextDescriptor`):
//   uint32_t Flags;            // ContextDescriptorFlags
//   int32_t  Parent;           // RelativeIndirectablePointer to the parent context, null at the top
// Modules, protocols and type descriptors continue with:
//   int32_t  Name;             // RelativeDirectPointer to a NUL-terminated C string
// Type context descriptors (`TargetTypeContextDescriptor`: class, struct, enum) continue with:
//   int32_t  AccessFunction;   // RelativeDirectPointer to the metadata accessor, nullable
//   int32_t  Fields;           // reflection field descriptor
// Class descriptors (`TargetClassDescriptor`) continue with:
//   int32_t  SuperclassType;   // RelativeDirectPointer to the superclass's mangled name; 0 for a root class
typedef struct {
    uint32_t flags;
    int32_t parent;
    int32_t name;
} clr_named_context_descriptor;

typedef struct {
    uint32_t flags;
    int32_t parent;
    int32_t name;
    int32_t access_function;
    int32_t fields;
} clr_type_context_descriptor;

typedef struct {
    clr_type_context_descriptor type;
    int32_t superclass_type;
} clr_class_descriptor;

// `ContextDescriptorFlags` (include/swift/ABI/MetadataValues.h): the kind is in the low 5 bits, and bit 7
// says the context is generic (declares generic parameters, or is nested in a context that does).
enum {
    CLR_CONTEXT_KIND_MASK = 0x1F,
    CLR_CONTEXT_IS_GENERIC = 0x80,
};

// `ContextDescriptorKind` (include/swift/ABI/MetadataValues.h).
enum {
    CLR_KIND_MODULE = 0,
    CLR_KIND_PROTOCOL = 3,
    CLR_KIND_CLASS = 16,
    CLR_KIND_STRUCT = 17,
    CLR_KIND_ENUM = 18,
};

static uint32_t clr_kind(const void *descriptor) {
    return ((const clr_named_context_descriptor *)descriptor)->flags & CLR_CONTEXT_KIND_MASK;
}

static bool clr_is_type_kind(uint32_t kind) {
    return kind == CLR_KIND_CLASS || kind == CLR_KIND_STRUCT || kind == CLR_KIND_ENUM;
}

static bool clr_has_name(const void *descriptor, const char *name) {
    const char *own = clr_resolve_direct(&((const clr_named_context_descriptor *)descriptor)->name);
    return own != NULL && strcmp(own, name) == 0;
}

bool clr_descriptor_is_generic(const void *descriptor) {
    return (((const clr_named_context_descriptor *)descriptor)->flags & CLR_CONTEXT_IS_GENERIC) != 0;
}

// MARK: - Type references

// `TypeReferenceKind` (include/swift/ABI/MetadataValues.h): how a conformance or type metadata record
// refers to its type. Only the first two refer to a Swift type context descriptor; the Objective-C ones
// (2, 3) and any future kind are skipped.
enum {
    CLR_TYPE_REF_DIRECT_DESCRIPTOR = 0,
    CLR_TYPE_REF_INDIRECT_DESCRIPTOR = 1,
};

// Resolves a 32-bit relative type reference of the given kind to a class, struct or enum descriptor.
// `offset` is the field's value with any flag bits already cleared.
static const void *clr_resolve_type_reference(const int32_t *field, int32_t offset, uint32_t kind) {
    if (offset == 0) {
        return NULL;
    }
    const char *target = (const char *)field + offset;
    const void *descriptor;
    switch (kind) {
    case CLR_TYPE_REF_DIRECT_DESCRIPTOR:
        descriptor = target;
        break;
    case CLR_TYPE_REF_INDIRECT_DESCRIPTOR:
        descriptor = *(const void *const *)target;
        break;
    default:
        return NULL;
    }
    if (descriptor == NULL || !clr_is_type_kind(clr_kind(descriptor))) {
        return NULL;
    }
    return descriptor;
}

// MARK: - Protocol conformance records

// A protocol conformance descriptor (`TargetProtocolConformanceDescriptor` in include/swift/ABI/Metadata.h):
//   int32_t  Protocol;         // RelativeIndirectablePointer to the protocol descriptor
//   int32_t  TypeRef;          // relative type reference; its kind is in Flags
//   int32_t  WitnessTablePattern;
//   uint32_t Flags;            // ConformanceFlags: bits 3-5 hold the TypeReferenceKind
// followed by trailing objects that are not read here.
typedef struct {
    int32_t protocol;
    int32_t type_ref;
    int32_t witness_table_pattern;
    uint32_t flags;
} clr_conformance_descriptor;

enum {
    CLR_CONFORMANCE_TYPE_REF_KIND_SHIFT = 3,
    CLR_CONFORMANCE_TYPE_REF_KIND_MASK = 0x7 << CLR_CONFORMANCE_TYPE_REF_KIND_SHIFT,
};

typedef struct {
    const char *module_name;
    const char *protocol_name;
    clr_descriptor_body body;
    void *context;
    // The protocol's descriptor once found; protocol descriptors are unique, so after the first match a
    // pointer comparison suffices. Pointers already known not to match are remembered one at a time,
    // which makes runs of records for the same protocol cheap.
    const void *matching_protocol;
    const void *last_rejected_protocol;
} clr_conformance_search;

static bool clr_is_wanted_protocol(clr_conformance_search *search, const void *protocol) {
    if (protocol == NULL) {
        return false;
    }
    if (protocol == search->matching_protocol) {
        return true;
    }
    if (protocol == search->last_rejected_protocol) {
        return false;
    }
    bool matches = false;
    if (clr_kind(protocol) == CLR_KIND_PROTOCOL && clr_has_name(protocol, search->protocol_name)) {
        const void *parent = clr_resolve_indirectable(&((const clr_named_context_descriptor *)protocol)->parent);
        matches = parent != NULL && clr_kind(parent) == CLR_KIND_MODULE && clr_has_name(parent, search->module_name);
    }
    if (matches) {
        search->matching_protocol = protocol;
    } else {
        search->last_rejected_protocol = protocol;
    }
    return matches;
}

static void clr_visit_conformances(const int32_t *records, size_t count, void *context) {
    clr_conformance_search *search = context;
    // Each record is a `RelativeDirectPointer<ProtocolConformanceDescriptor>`.
    for (size_t index = 0; index < count; index++) {
        const clr_conformance_descriptor *conformance = clr_resolve_direct(&records[index]);
        if (conformance == NULL) {
            continue;
        }
        if (!clr_is_wanted_protocol(search, clr_resolve_indirectable(&conformance->protocol))) {
            continue;
        }
        uint32_t kind = (conformance->flags & CLR_CONFORMANCE_TYPE_REF_KIND_MASK) >> CLR_CONFORMANCE_TYPE_REF_KIND_SHIFT;
        const void *descriptor = clr_resolve_type_reference(&conformance->type_ref, conformance->type_ref, kind);
        if (descriptor != NULL) {
            search->body(descriptor, search->context);
        }
    }
}

void clr_enumerate_conforming_descriptors(
    const char *module_name,
    const char *protocol_name,
    clr_descriptor_body body,
    void *context)
{
    clr_conformance_search search = {module_name, protocol_name, body, context, NULL, NULL};
    clr_for_each_section(CLR_SECTION_CONFORMANCES, clr_visit_conformances, &search);
}

// MARK: - Type metadata records

// A type metadata record (`TargetTypeMetadataRecord` in include/swift/ABI/Metadata.h) is one 32-bit
// relative pointer whose low 2 bits hold the TypeReferenceKind (`RelativeDirectPointerIntPair`; the
// targets are 4-byte aligned).
enum {
    CLR_TYPE_RECORD_KIND_MASK = 0x3,
};

typedef struct {
    clr_descriptor_body body;
    void *context;
} clr_subclass_search;

static void clr_visit_type_records(const int32_t *records, size_t count, void *context) {
    const clr_subclass_search *search = context;
    for (size_t index = 0; index < count; index++) {
        int32_t raw = records[index];
        uint32_t kind = (uint32_t)raw & CLR_TYPE_RECORD_KIND_MASK;
        const void *descriptor =
            clr_resolve_type_reference(&records[index], raw & ~(int32_t)CLR_TYPE_RECORD_KIND_MASK, kind);
        if (descriptor == NULL || clr_kind(descriptor) != CLR_KIND_CLASS || clr_descriptor_is_generic(descriptor)) {
            continue;
        }
        if (((const clr_class_descriptor *)descriptor)->superclass_type == 0) {
            continue;  // a root class: nothing to inherit a conformance from
        }
        search->body(descriptor, search->context);
    }
}

void clr_enumerate_subclass_descriptors(clr_descriptor_body body, void *context) {
    clr_subclass_search search = {body, context};
    clr_for_each_section(CLR_SECTION_TYPES, clr_visit_type_records, &search);
}

// MARK: - Metadata

// `MetadataResponse` and the metadata accessor of a non-generic type (include/swift/ABI/Metadata.h,
// include/swift/Runtime/Metadata.h): the accessor takes a `MetadataRequest` (a size_t; 0 asks for
// complete metadata and blocks until it is) and returns the metadata and its state, in the Swift calling
// convention. Generic types' accessors take generic arguments as well and are never called here.
typedef struct {
    const void *value;
    size_t state;
} clr_metadata_response;

typedef clr_metadata_response (*clr_metadata_accessor)(size_t request) __attribute__((swiftcall));

enum {
    CLR_REQUEST_COMPLETE = 0,
};

const void *clr_metadata_for_descriptor(const void *descriptor) {
    if (!clr_is_type_kind(clr_kind(descriptor)) || clr_descriptor_is_generic(descriptor)) {
        return NULL;
    }
    const void *function =
        clr_resolve_direct(&((const clr_type_context_descriptor *)descriptor)->access_function);
    if (function == NULL) {
        return NULL;
    }
    clr_metadata_accessor accessor = (clr_metadata_accessor)function;
    return accessor(CLR_REQUEST_COMPLETE).value;
}

const void *clr_descriptor_for_metadata(const void *metadata) {
    return swift_getTypeContextDescriptor(metadata);
}
