( placeholder: dagaz axiom layer being written )
