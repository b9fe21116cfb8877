import LifecycleCore
import LifecycleTesting
import Testing

// README: completeness check
@Test func everyModuleIsInTheManifest() throws {
    try verifyModuleManifestCompleteness(.discovered)
}
// README: end

// README: staleness check
@Test func checkedInManifestIsFresh() throws {
    try checkModuleManifestIsFresh(at: "Sources/FeatureA/ModuleManifest+FeatureA.swift")
}
// README: end
