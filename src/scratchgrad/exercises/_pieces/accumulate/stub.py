class Value(Value):  # your Value so far, re-opened
    # Check this as it is: the check names each rule of yours
    # that sets a child's grad with `=`, and the line. Fix each
    # where you wrote it, or re-open the rule here, fixed.
    pass  # TODO: every rule of yours adds its share
