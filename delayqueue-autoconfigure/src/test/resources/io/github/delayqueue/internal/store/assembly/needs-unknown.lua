-- needs: clock-typo
return 1
