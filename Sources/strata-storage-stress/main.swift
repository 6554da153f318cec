import StrataStorage
print("placeholder")
