struct Point { var x = 0 }
enum Outer { struct Inner {} }
class Animal { func name() -> String { "\(type(of: self))" } }
class Dog: Animal {}
func main() {
    let p = Point()
    print(type(of: p), type(of: 3), type(of: 2.5), type(of: true))
    print(type(of: Outer.Inner()), Point.self, Dog().name(), Animal().name())
    print(type(of: p) == Point.self, "\(type(of: Dog()))")
}
