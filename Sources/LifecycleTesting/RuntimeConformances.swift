import CLifecycleRuntime
package import LifecycleCore

/// Every non-generic nominal type loaded in this process that conforms to `LifecycleModule` — directly,
/// through a refined protocol, or through a superclass — found through the Swift runtime's metadata
/// sections. Test-time only: it relies on private runtime ABI. Sorted by `String(reflecting:)`.
///
/// It works in two passes over every loaded image:
///
/// 1. The protocol conformance records for `LifecycleModule`. Every type that declares the conformance,
///    directly or through a refined protocol (the compiler emits the implied conformance's record too), has
///    one. Generic conformers are kept aside, not instantiated: they have no metadata of their own.
/// 2. A subclass has no record of its own. So every non-generic class with a superclass, taken from the type
///    metadata records, is instantiated and its superclass chain is walked; it conforms if an ancestor's
///    type descriptor is one from pass 1 (a generic one included: `final class A: Base<Int>`).
///
/// Each type found is confirmed with a dynamic cast to `any LifecycleModule.Type` before it is returned.
///
/// It finds only what the binary still contains. In an optimized build without `-enable-testing`, a type
/// that nothing references and whose only declared conformance is to a refined protocol that lacks
/// `@_alwaysEmitConformanceMetadata` is removed entirely, so it cannot be found.
package func runtimeModuleTypes() -> [any LifecycleModule.Type] {
    var search = DescriptorSearch()
    withUnsafeMutablePointer(to: &search) { search in
        clr_enumerate_conforming_descriptors(
            protocolModuleName,
            protocolName,
            { descriptor, context in
                context?.assumingMemoryBound(to: DescriptorSearch.self).pointee.conformers.insert(descriptor)
            },
            search
        )
        clr_enumerate_subclass_descriptors(
            { descriptor, context in
                context?.assumingMemoryBound(to: DescriptorSearch.self).pointee.subclasses.append(descriptor)
            },
            search
        )
    }

    var found: [ObjectIdentifier: any LifecycleModule.Type] = [:]
    func keep(_ metadata: UnsafeRawPointer) {
        let type = unsafeBitCast(metadata, to: Any.Type.self)
        if let module = type as? any LifecycleModule.Type {
            found[ObjectIdentifier(type)] = module
        }
    }

    // Pass 1: the types with a record of their own. `clr_metadata_for_descriptor` declines generic ones.
    for descriptor in search.conformers {
        if let metadata = clr_metadata_for_descriptor(descriptor) {
            keep(metadata)
        }
    }

    // Pass 2: classes that inherit the conformance.
    for descriptor in search.subclasses where !search.conformers.contains(descriptor) {
        guard let metadata = clr_metadata_for_descriptor(descriptor),
            let type = unsafeBitCast(metadata, to: Any.Type.self) as? AnyClass
        else { continue }
        var ancestor: AnyClass? = _getSuperclass(type)
        while let current = ancestor {
            let ancestorMetadata = unsafeBitCast(current, to: UnsafeRawPointer.self)
            if let ancestorDescriptor = clr_descriptor_for_metadata(ancestorMetadata),
                search.conformers.contains(ancestorDescriptor)
            {
                keep(metadata)
                break
            }
            ancestor = _getSuperclass(current)
        }
    }

    return found.values.sorted { String(reflecting: $0) < String(reflecting: $1) }
}

/// What the C enumerations report, gathered through their context pointer.
private struct DescriptorSearch {
    /// Type descriptors with a `LifecycleModule` conformance record, generic ones included.
    var conformers: Set<UnsafeRawPointer> = []
    /// Descriptors of the non-generic classes that have a superclass.
    var subclasses: [UnsafeRawPointer] = []
}

/// The protocol's module and name, as its conformance records spell them: `LifecycleCore.LifecycleModule`.
private let protocolModuleName = "LifecycleCore"
private let protocolName = "LifecycleModule"
