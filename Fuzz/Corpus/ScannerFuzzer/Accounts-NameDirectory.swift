/// The ``AccountDirectory`` that ``AccountsModule`` provides: names held in memory.
struct NameDirectory: AccountDirectory {
    let names: [Int: String]

    func name(of id: Int) -> String? { names[id] }
}
