class Vehicle {
    var wheels: Int
    var name: String { "vehicle" }

    init(wheels: Int) {
        self.wheels = wheels
    }

    func describe() -> String {
        "\(name) with \(wheels) wheels"
    }

    func honk() -> String { "beep" }
}

class Bike: Vehicle {
    init() { super.init(wheels: 2) }
    override var name: String { "bike" }
    override func honk() -> String { "ring" }
}

class Truck: Vehicle {
    var load: Int = 0
    override var name: String { "truck" }
    override func describe() -> String {
        super.describe() + " carrying \(load)"
    }
}

func main() {
    let vehicles: [Vehicle] = [Vehicle(wheels: 4), Bike(), Truck(wheels: 6)]
    for v in vehicles {
        print(v.describe(), v.honk())
    }
    let t = Truck(wheels: 18)
    t.load = 20
    print(t.describe())
    print(vehicles[1] is Bike, vehicles[0] is Bike)
}
