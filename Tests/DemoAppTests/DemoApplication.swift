import DemoApp
import WayfinderCore

/// The sample app, built once for every test (its declarations are checked on building).
let demoApplication: Application = {
    do { return try DemoApp.makeApplication() } catch { fatalError("the sample app does not build: \(error)") }
}()

let demoEngine = Engine(demoApplication)
