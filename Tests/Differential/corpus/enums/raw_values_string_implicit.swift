enum Tab: String {
    case home
    case settings
    case profileDetail
    case about = "About Us"
}

func main() {
    print(Tab.home.rawValue)
    print(Tab.settings.rawValue)
    print(Tab.profileDetail.rawValue)
    print(Tab.about.rawValue)
    print(Tab.about)
    print("\(Tab.profileDetail)")
    let tabs: [Tab] = [.home, .about]
    print(tabs.map(\.rawValue))
    print(tabs.map { "\($0)" })
    print(Tab.home.rawValue.count)
}
