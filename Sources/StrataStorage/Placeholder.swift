import StrataPOSIX
enum Placeholder {}
